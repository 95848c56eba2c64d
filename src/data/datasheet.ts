/**
 * The datasheet model: plain-JSON unit definitions derived from the Wahapedia export.
 * Only facts live here (numbers, names, keywords, parsed abilities), never rules prose.
 *
 * Shared by the importer (src/data), the attack sequence (src/rules) and the game state
 * (a game keeps the datasheets it uses in its state so a log replays on its own).
 */
import { lookupKey } from './text.ts';

/** A dice expression as written on a datasheet: "3", "D3", "D6+1", "2D6". */
export interface DiceExpr {
  /** number of dice (0 for a fixed value) */
  n: number;
  /** sides of each die (3 or 6; 0 for a fixed value) */
  sides: number;
  /** fixed part added to the dice */
  plus: number;
}

/**
 * A weapon ability parsed into a structured entry. `name` is the upper-case ability name as
 * the registry knows it (`SUSTAINED HITS`, `ANTI`, `RAPID FIRE`...).
 *   SUSTAINED HITS 1  -> { name: 'SUSTAINED HITS', x: 1 }
 *   SUSTAINED HITS D3 -> { name: 'SUSTAINED HITS', x: 0, dice: {n:1,sides:3,plus:0} }
 *   ANTI-INFANTRY 4+  -> { name: 'ANTI', keyword: 'INFANTRY', threshold: 4 }
 *   MELTA 2           -> { name: 'MELTA', x: 2 }
 *   LETHAL HITS       -> { name: 'LETHAL HITS' }
 */
export interface WeaponAbility {
  name: string;
  x?: number;
  dice?: DiceExpr;
  keyword?: string;
  threshold?: number;
}

export interface WeaponProfile {
  /** full profile name, e.g. "Fusion blaster" or "Missile pod" or "Plasma rifle - supercharge" */
  name: string;
  /** inches, or 'Melee' */
  range: number | 'Melee';
  attacks: DiceExpr;
  /** BS or WS: 3 means 3+; 0 when the datasheet says N/A (TORRENT weapons never roll to hit) */
  skill: number;
  strength: number;
  /** AP as a non-positive number: -1 means AP -1 */
  ap: number;
  damage: DiceExpr;
  abilities: WeaponAbility[];
  /** D6 result that selects this profile, for the rare weapons whose profile is rolled ("1-2") */
  roll?: string;
}

/** A weapon as carried by a model: one or more profiles (multi-profile weapons pick one before targets). */
export interface Weapon {
  /** key of the weapon on its datasheet (the export's weapon name, e.g. "Pulse rifle") */
  name: string;
  profiles: WeaponProfile[];
}

export interface ModelProfile {
  name: string;
  /** Move in inches (0 when '-') */
  move: number;
  toughness: number;
  /** 3 means 3+ ; 7 means no save */
  save: number;
  /** invulnerable save, 4 means 4+; null when none */
  invulnerable: number | null;
  wounds: number;
  /** 7 means 7+ */
  leadership: number;
  oc: number;
  base: BaseSize;
  /** AIRCRAFT "20+\"": the least the model must move when it moves */
  minimumMove?: number;
  /** the invulnerable save applies against ranged attacks only ("* Against ranged attacks only") */
  invulnerableRangedOnly?: boolean;
  /** a better invulnerable save against melee attacks (Howling Banshees: 4+) */
  invulnerableMelee?: number;
  /**
   * Footprint of the model's body for models whose base does not cover it: vehicles on flying bases
   * (Devilfish, Wave Serpent, Starweaver). The rules measure to the base; the hull is for placement and
   * overlap. See src/data/hulls.ts for where the sizes come from.
   */
  hull?: { lengthMm: number; widthMm: number };
}

/** Base size as on the datasheet. Round bases by diameter in mm; ovals; hulls for vehicles without bases. */
export type BaseSize =
  | { shape: 'round'; diameterMm: number; /** on a flying stand */ flying?: boolean }
  | { shape: 'oval'; lengthMm: number; widthMm: number; flying?: boolean }
  /** "Use model": no base; the size is the hull's (src/data/hulls.ts) */
  | { shape: 'hull'; lengthMm: number; widthMm: number };

/** Core abilities parsed from the datasheet, in structured form. */
export interface CoreAbility {
  /** e.g. 'Deep Strike', 'Leader', 'Feel No Pain', 'Stealth', 'Deadly Demise', 'Firing Deck', 'Scouts',
   *  'Infiltrators', 'Lone Operative', 'Fights First', 'Hover'... */
  name: string;
  /** Feel No Pain 5+ -> 5; Deadly Demise D3 -> dice; Firing Deck 6 -> 6; Scouts 6" -> 6 */
  x?: number;
  dice?: DiceExpr;
}

export interface UnitSize {
  /** models in the unit at this size */
  models: number;
  points: number;
}

export interface DamagedProfile {
  /** the profile applies while the model has between `from` and `to` wounds remaining (inclusive) */
  from: number;
  to: number;
  /** e.g. subtract 1 from Hit rolls */
  hitModifier: number;
  /** e.g. subtract 5 from the Objective Control characteristic */
  ocModifier?: number;
  /** the Attacks characteristics of the model's weapons are halved */
  attacksHalved?: boolean;
  /** true when the export's text says more than the fields above capture */
  unparsed?: boolean;
}

export interface Datasheet {
  /** Wahapedia id, e.g. "000000123" */
  id: string;
  name: string;
  /** faction id in the export, e.g. 'TAU', 'AE' */
  faction: string;
  role: string;
  /** model profiles (one per line of Datasheets_models) */
  models: ModelProfile[];
  /**
   * unit composition: for each model profile, min and max count. `profile` is the model's name in the
   * unit composition ("Fire Warrior Shas'ui"), the name army lists use; `statsProfile` names the entry
   * of `models` holding its characteristics; `base` overrides that profile's base when it differs.
   */
  composition: { profile: string; min: number; max: number; statsProfile?: string; base?: BaseSize }[];
  /** "This unit can contain a maximum of N models" */
  maxModels?: number;
  sizes: UnitSize[];
  /** points added per optional model ("Shadow Spectre Exarch +30") */
  extraCosts?: { profile: string; points: number }[];
  /** publication the datasheet comes from, e.g. "T'au Empire (Warhammer Legends)" */
  source?: string;
  /** every weapon the datasheet lists, by name */
  weapons: Weapon[];
  /**
   * default loadout: weapon and wargear names per model profile (the composition's `profile`), one
   * entry per item carried ("2 shuriken cannons" gives the name twice)
   */
  defaultLoadout: Record<string, string[]>;
  /** wargear that is not a weapon (drones, shields, support systems...) named by loadout or options */
  wargear?: string[];
  /** names of Wargear abilities on the datasheet (apply only to the model that has that wargear) */
  wargearAbilities?: string[];
  /** wargear option lines, structured where the export allows */
  wargearOptions: WargearOption[];
  /** items a model may carry once ("* This model cannot have duplicates of these pieces of wargear": the starred ones) */
  noDuplicates?: string[];
  /** pairs of items one model may not carry together ("* No model can be equipped with both a X and Y at the same time") */
  exclusiveOnModel?: string[][];
  /** the most ranged weapons one model may carry ("** Each model cannot be equipped with more than 3 ranged weapons") */
  maxRangedWeaponsPerModel?: number;
  keywords: string[];
  factionKeywords: string[];
  /** keywords only some models have (Aun'Va's CHARACTER), by composition profile; not in `keywords` */
  modelKeywords?: Record<string, string[]>;
  coreAbilities: CoreAbility[];
  /** names of datasheet (and faction) abilities; the rules registry plays them by name */
  abilities: string[];
  /**
   * ids of datasheets this unit can lead (when it has the Leader ability): the export's list; a catalog adds
   * the datasheets standing in for them (CORSAIRS, ./leader-stand-ins.ts)
   */
  leads: string[];
  /**
   * the Leaders (datasheet names or keywords, as its leader text writes them) beside which this Leader may
   * join a unit that already has one ("even if one Autarch or Farseer model has already been attached"):
   * ./co-leaders.ts; absent when the text names none
   */
  joinsBeside?: string[];
  /**
   * transport capacity in models and who may embark; null when not a transport. A unit may embark
   * when it has every keyword of `keywords` and none of `excludedKeywords` (models with one of
   * `excludedExceptions` are allowed anyway), or when its datasheet is named in `units`.
   */
  transport: {
    capacity: number;
    keywords: string[];
    excludedKeywords: string[];
    excludedExceptions?: string[];
    /** "models from the following units: ..." */
    units?: string[];
    /** "Each Wraith Construct model takes the space of 2 models" */
    modelSpace?: { keyword: string; space: number }[];
    /** true when the export's text says more than the fields above capture */
    unparsed?: boolean;
  } | null;
  damaged: DamagedProfile | null;
}

export interface WargearOption {
  /** raw structured option: replace `replace` with one of `with` for up to `count` models ('all' for each) */
  replace: string[];
  with: string[];
  count: number | 'all';
  /** models this applies to (profile names), empty for any */
  models: string[];
  /**
   * the alternatives of `with`, each a list of the items taken together ("1 shuriken pistol and
   * 1 diresword" is one choice of two items)
   */
  choices?: string[][];
  /** how many of the choices one model may take ("up to two of the following") */
  choose?: number;
  /** the option applies once for every N models in the unit ("For every 5 models in this unit") */
  perModels?: number;
  /** no two models taking the option may take the same choice ("(duplicates are not allowed)") */
  distinct?: true;
  /** no model taking several of its choices may take one twice ("up to two of the following, but cannot take duplicates") */
  distinctPerModel?: true;
  /**
   * with `distinct`, a unit of at least this many models may take each choice twice ("* You cannot select the
   * same option more than once per unit unless it contains 10 models, in which case ... more than twice")
   */
  twiceFromModels?: number;
  /** true when the importer could not structure the line */
  unparsed?: boolean;
  /** never written by the importer (datasheet text stays out of the data files) */
  text?: string;
}

/** Does the weapon profile itself carry the ability (PISTOL, BLAST...)? Rules that grant abilities: `weaponHas`. */
export function profileHas(p: WeaponProfile, ability: string): boolean {
  return p.abilities.some((a) => a.name === ability);
}

/**
 * Has the unit of this datasheet the keyword: the datasheet's, its faction's, or one only some of its models
 * have (Aun'Va's CHARACTER, a Voidscarred Way Seeker's PSYKER): a unit has the keywords of its models.
 */
export function unitOfHasKeyword(ds: Pick<Datasheet, 'keywords' | 'factionKeywords' | 'modelKeywords'>, kw: string): boolean {
  const k = kw.toUpperCase();
  if (ds.keywords.includes(k) || ds.factionKeywords.includes(k)) return true;
  if (ds.modelKeywords) for (const p in ds.modelKeywords) if (ds.modelKeywords[p].includes(k)) return true;
  return false;
}

export function hasKeyword(ds: { keywords: string[]; factionKeywords?: string[] }, kw: string): boolean {
  const k = kw.toUpperCase();
  return ds.keywords.includes(k) || (ds.factionKeywords?.includes(k) ?? false);
}

/**
 * The models a size of the datasheet counts: all but those of a profile priced on its own line (Shadow Spectres
 * come in 5 or 10, and their Exarch costs 30 more: 1 Exarch and 5 Shadow Spectres are a unit of size 5).
 */
export function sizedModelCount(ds: Datasheet, models: readonly { profile: string; count: number }[]): number {
  const extra = (ds.extraCosts ?? []).map((e) => lookupKey(e.profile));
  return models.reduce((s, m) => s + (extra.includes(lookupKey(m.profile)) ? 0 : m.count), 0);
}
