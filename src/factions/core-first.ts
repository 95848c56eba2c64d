/**
 * The core's rule registries, loaded before a faction module registers anything: roll reactions, stratagem
 * lists and listeners run in registration order, and a game (src/sim/play.ts) loads the core's before the
 * factions'. Each faction module that registers rules imports this first, so that a module imported alone
 * (a test, a tool) cannot put its faction's entries before the core's.
 */
import '../rules/index.ts';
