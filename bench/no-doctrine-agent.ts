/**
 * The heuristic without its gun-platform doctrine (vehicles Advancing anywhere, charge reach not priced):
 * the comparison row of the README's agent table. Passed to the CLI by path: --agents heuristic,./bench/no-doctrine-agent.ts
 */
import { createHeuristic } from '../agents/heuristic.ts';

export default () => createHeuristic({ gunlineVehicles: 0, chargeCost: 0 });
