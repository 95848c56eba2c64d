/**
 * Hull footprints for models the export gives no base for ("Use model") and for vehicles on flying
 * bases, whose body reaches well past the stand.
 *
 * Rule: a model named in HULLS gets that size (length x width in mm, the kit's body seen from above,
 * guns and wings included, rounded to 5 mm; measured from the T'au and Aeldari kits, so approximate).
 * Any other model gets a size by keyword (hullByKeywords), and the importer lists those in its summary
 * so they can be added to the table.
 */
import { lookupKey } from './text.ts';

export interface HullSize {
  lengthMm: number;
  widthMm: number;
}

const h = (lengthMm: number, widthMm: number): HullSize => ({ lengthMm, widthMm });

/** Known hulls by datasheet or model name (matched with lookupKey). */
const HULLS: Record<string, HullSize> = {
  // T'au Empire: the Devilfish chassis (Hammerhead, Sky Ray, Longstrike) and smaller grav craft
  'Devilfish': h(185, 115),
  'Hammerhead Gunship': h(225, 115),
  'Longstrike': h(225, 115),
  'Sky Ray Gunship': h(185, 115),
  'Piranha': h(140, 95),
  'Piranhas': h(140, 95),
  'Tx42 Piranha': h(140, 95),
  'Tetras': h(95, 65),
  'Razorshark Strike Fighter': h(215, 215),
  'Sun Shark Bomber': h(215, 200),
  'Barracuda': h(230, 250),
  'Tiger Shark': h(400, 440),
  'Ax-1-0 Tiger Shark': h(400, 440),
  'Orca Dropship': h(420, 330),
  'Manta': h(890, 760),
  'Tidewall Shieldline': h(175, 85),
  'Tidewall Droneport': h(150, 100),
  'Tidewall Gunrig': h(150, 100),
  'Remote Sensor Tower': h(40, 40),
  'Heavy Gun Drones': h(50, 45),
  'Remora Stealth Drones': h(90, 70),
  'Drone Sentry Turret': h(60, 60),
  // Aeldari: the Falcon chassis, Harlequin skimmers, super-heavies and aircraft
  'Wave Serpent': h(205, 115),
  'Falcon': h(205, 115),
  'Fire Prism': h(205, 115),
  'Night Spinner': h(205, 115),
  'Firestorm': h(205, 115),
  'Warp Hunter': h(205, 115),
  'Starweaver': h(150, 100),
  'Voidweaver': h(150, 130),
  'Hornet': h(130, 90),
  'Lynx': h(230, 125),
  'Scorpion': h(320, 185),
  'Cobra': h(320, 185),
  'Crimson Hunter': h(215, 220),
  'Hemlock Wraithfighter': h(200, 210),
  'Nightwing': h(215, 220),
  'Phoenix': h(220, 240),
  'Vampire Raider': h(430, 540),
  'Vampire Hunter': h(430, 540),
  'Revenant Titan': h(200, 160),
  'Phantom Titan': h(320, 250),
  'Webway Gate': h(160, 60),
  'Ynnari Raider': h(230, 95),
  'Venom': h(150, 90),
  'Ynnari Venom': h(150, 90),
};

const BY_KEY = new Map(Object.entries(HULLS).map(([k, v]) => [lookupKey(k), v]));

/** The table's hull for any of the given names (model name first, then datasheet name). */
export function knownHull(...names: string[]): HullSize | null {
  for (const n of names) {
    const hit = BY_KEY.get(lookupKey(n));
    if (hit) return { ...hit };
  }
  return null;
}

/** Fallback footprint by keyword, largest class first. */
export function hullByKeywords(keywords: string[]): HullSize {
  const has = (k: string) => keywords.includes(k);
  if (has('TITANIC')) return h(300, 220);
  if (has('AIRCRAFT')) return h(220, 220);
  if (has('FORTIFICATION')) return h(150, 100);
  if (has('VEHICLE') && has('TRANSPORT')) return h(205, 115);
  if (has('VEHICLE')) return h(180, 110);
  if (has('MONSTER')) return h(150, 100);
  return h(100, 60);
}
