/**
 * T'au wargear abilities. Muster gives a model the wargear abilities of what it carries
 * (ModelState.wargear) and its unit those abilities; each entry here finds its bearers.
 */
import { registerRule } from '../../core/rules-registry.ts';
import { bearerInvulnerable } from '../helpers.ts';

const SHIELD_GENERATOR = 'Shield Generator';

/** Shield Generator: its bearer has a 4+ invulnerable save. */
registerRule({
  name: SHIELD_GENERATOR, kind: 'wargear-ability',
  invulnerableSave: bearerInvulnerable(SHIELD_GENERATOR, 4),
});
