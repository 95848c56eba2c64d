/**
 * Every bundled faction's rules. Adding a faction: a folder with an index.ts that registers it, and a line
 * here; each of its modules that registers anything imports ../core-first.ts first.
 */
import './tau/index.ts';
import './aeldari/index.ts';
