/** Every bundled faction's rules. Adding a faction: a folder with an index.ts that registers it, and a line here. */
import './tau/index.ts';
import './aeldari/index.ts';
