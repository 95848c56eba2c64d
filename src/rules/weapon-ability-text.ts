/**
 * Weapon abilities as written on a datasheet ("SUSTAINED HITS 1", "anti-infantry 4+", "melta 2",
 * "lethal hits") into structured entries. Case-insensitive; unknown words are returned as-is so the
 * caller can report them.
 */
import type { WeaponAbility } from '../data/datasheet.ts';
import { parseDiceExpr } from '../core/dice-expr.ts';

const WITH_X = ['SUSTAINED HITS', 'RAPID FIRE', 'MELTA', 'DEADLY DEMISE', 'FIRING DECK'];

export function parseWeaponAbility(text: string): WeaponAbility {
  const t = text.trim().toUpperCase().replace(/\s+/g, ' ').replace(/[’]/g, "'");
  const anti = /^ANTI-(.+?) (\d)\+$/.exec(t);
  if (anti) return { name: 'ANTI', keyword: anti[1], threshold: Number(anti[2]) };
  for (const name of WITH_X) {
    if (t.startsWith(name + ' ')) {
      const rest = t.slice(name.length + 1);
      if (/^\d+$/.test(rest)) return { name, x: Number(rest) };
      const dice = parseDiceExpr(rest);
      if (dice) return { name, x: 0, dice };
    }
  }
  return { name: t };
}

export function parseWeaponAbilities(list: string[]): WeaponAbility[] {
  return list.filter((s) => s.trim() !== '').map(parseWeaponAbility);
}
