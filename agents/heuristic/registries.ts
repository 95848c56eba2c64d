/**
 * The engine's registries, loaded before anything else of the agent: roll reactions, stratagem lists and
 * listeners run in registration order, so the core's must register before the faction modules the agent
 * imports (src/sim/play.ts loads them in this order for every game). Each module of agents/heuristic/ imports
 * this first, so that importing one of them alone (a test) loads the rules as a game does.
 */
import '../../src/rules/index.ts';
import '../../src/factions/index.ts';
