/**
 * Entry point of a batch worker thread. Node 20 does not apply module hooks given to a worker in its
 * `execArgv` (`--import tsx` only half works: ESM `import()` of a .ts file fails, nodejs/node#47747), so
 * the thread registers tsx's ESM hooks itself and then loads the TypeScript worker module.
 */
import { register } from 'tsx/esm/api';

register();
const mod = await import('./batch-worker.ts');

export default mod.default;
