/**
 * List export forms the parser misread (audit 9): the app's thousands separator ("Strike Force (2,000 Points)"),
 * an Enhancement named with its tag ("Infamy (Aura)"), "• Warlord" nested under a model, New Recruit's compact
 * WTC form ("Char1: 1x Unit (N pts): items", "• 9x Model: 9 with ...") and "+ DETACHMENT: Name (rule)".
 */
import { describe, expect, it } from 'vitest';
import { parseArmyList, type ParsedArmy } from '../../src/data/army-build.ts';
import { DataError } from '../../src/data/errors.ts';

/** What a list is read as: each unit's name, points, models and weapons, Warlord and Enhancement. */
function units(r: ParsedArmy) {
  return r.army.units.map((u) => ({
    name: u.name,
    points: u.points,
    models: u.models.map((m) => `${m.count} ${m.profile}: ${m.weapons.join(', ')}${m.wargear ? ` + ${m.wargear.join(', ')}` : ''}`),
    ...(u.warlord ? { warlord: true } : {}),
    ...(u.enhancement ? { enhancement: u.enhancement } : {}),
  }));
}

const FIREBLADE = { name: 'Cadre Fireblade', points: 65, models: ['1 Cadre Fireblade: Close combat weapon, Fireblade pulse rifle'], warlord: true, enhancement: 'Precision of the Patient Hunter' };
const STRIKE_TEAM = { name: 'Strike Team', points: 70, models: ["1 Fire Warrior Shas'ui: Close combat weapon, Pulse pistol, Pulse rifle", '9 Fire Warriors: Close combat weapon, Pulse pistol, Pulse rifle'] };

/** The app's current export of a Fireblade and a Strike Team, every model's weapons listed. */
const TAU_APP_LIST = `Tau Probe (135 Points)

T'au Empire
Kauyon
Strike Force (2,000 Points)

CHARACTERS

Cadre Fireblade (65 Points)
  • Warlord
  • 1x Close combat weapon
  • 1x Fireblade pulse rifle
  • Enhancements: Precision of the Patient Hunter

BATTLELINE

Strike Team (70 Points)
  • 1x Fire Warrior Shas'ui
     ◦ 1x Close combat weapon
     ◦ 1x Pulse pistol
     ◦ 1x Pulse rifle
  • 9x Fire Warriors
     ◦ 9x Close combat weapon
     ◦ 9x Pulse pistol
     ◦ 9x Pulse rifle

Exported with App Version: v1.53.0 (1), Data Version: v780
`;

describe('the app\'s thousands separator: "(2,000 Points)"', () => {
  const list = (battleSize: string, title: string, titan: string) => `Titan Probe (${title} Points)

Aeldari
Warhost
${battleSize}

CHARACTERS

Farseer (70 Points)
  • Warlord
  • 1x Eldritch Storm
  • 1x Shuriken pistol
  • 1x Witchblade

OTHER DATASHEETS

Revenant Titan (${titan} Points)
  • 1x Cloudburst missile launcher
  • 1x Revenant pulsar
  • 1x Sonic lance
  • 1x Revenant feet

Exported with App Version: v1.53.0 (1), Data Version: v780
`;
  const FARSEER = { name: 'Farseer', points: 70, models: ['1 Farseer: Eldritch Storm, Shuriken pistol, Witchblade'], warlord: true };
  const TITAN = { name: 'Revenant Titan', points: 1100, models: ['1 Revenant Titan: Cloudburst missile launcher, Revenant pulsar, Sonic lance, Revenant feet'] };

  it('in the battle-size line: the detachment and battle size are read, not taken for each other', () => {
    const r = parseArmyList(TAU_APP_LIST, { file: 'p.txt' });
    expect(r.format).toBe('gw-app');
    expect(r.army.detachment).toBe('Kauyon');
    expect(r.army.subfaction).toBeUndefined();
    expect(r.army.battleSize).toEqual({ name: 'Strike Force', pointsLimit: 2000 });
    expect(r.army.points).toBe(135);
    expect(units(r)).toEqual([FIREBLADE, STRIKE_TEAM]);
    expect(r.warnings).toEqual([]);
  });

  it('in the title and a unit line: "Titan Probe (1,170 Points)", "Revenant Titan (1,100 Points)"', () => {
    const r = parseArmyList(list('Onslaught (3,000 Points)', '1,170', '1,100'), { file: 'p.txt' });
    expect(r.format).toBe('gw-app');
    expect(r.army.name).toBe('Titan Probe');
    expect(r.army.detachment).toBe('Warhost');
    expect(r.army.battleSize).toEqual({ name: 'Onslaught', pointsLimit: 3000 });
    expect(r.army.points).toBe(1170);
    expect(units(r)).toEqual([FARSEER, TITAN]);
    expect(r.warnings).toEqual([]);
  });

  it('a unindented line that is neither a heading nor a unit is named in a warning, not passed over in silence', () => {
    const r = parseArmyList(list('Onslaught (3000 Points)', '1170', '1.100'), { file: 'p.txt' });
    expect(units(r)).toEqual([FARSEER]);
    expect(r.warnings).toEqual([
      'line 17: "Revenant Titan (1.100 Points)" is neither a heading nor a unit ("<unit> (<points> Points)"); skipped',
      'the list totals 1170 points, the data gives 70',
    ]);
  });
});

describe('an Enhancement whose name has a parenthesis: "Infamy (Aura)"', () => {
  const KHARSETH = { name: 'Kharseth', points: 95, models: ['1 Kharseth: Dread of the Deep Void, Waystave'], warlord: true };
  const VOIDREAVERS = {
    name: 'Corsair Voidreavers',
    points: 90,
    models: ['1 Voidreaver Felarch: Close combat weapon, Power sword, Shuriken pistol', '4 Corsair Voidreavers: Close combat weapon, Power sword, Shuriken pistol'],
    enhancement: 'Infamy (Aura)',
  };
  const gwApp = (enhancement: string) => `Corsair Probe (185 Points)

Aeldari
Corsair Coterie
Incursion (1000 Points)

CHARACTERS

Kharseth (95 Points)
  • Warlord
  • 1x Dread of the Deep Void
  • 1x Waystave

BATTLELINE

Corsair Voidreavers (90 Points)
  • 1x Voidreaver Felarch
     ◦ 1x Close combat weapon
     ◦ 1x Power sword
     ◦ 1x Shuriken pistol
  • 4x Corsair Voidreavers
     ◦ 4x Close combat weapon
     ◦ 4x Power sword
     ◦ 4x Shuriken pistol
  • Enhancements: ${enhancement}

Exported with App Version: v1.53.0 (1), Data Version: v780
`;

  it('Warhammer 40,000 app: "• Enhancements: Infamy (Aura)"', () => {
    const r = parseArmyList(gwApp('Infamy (Aura)'), { file: 'p.txt' });
    expect(r.army.detachment).toBe('Corsair Coterie');
    expect(units(r)).toEqual([KHARSETH, VOIDREAVERS]);
    expect(r.warnings).toEqual([]);
  });

  it('New Recruit plain text: "Corsair Voidreavers [90 pts]: Infamy (Aura)"', () => {
    const r = parseArmyList(`Xenos - Aeldari - Corsair Probe - [185 pts]

# ++ Army Roster ++ [185 pts]
## Configuration
Battle Size: Incursion (1000 Point limit)
Detachment: Corsair Coterie
Show/Hide Options

## Epic Hero [95 pts]
Kharseth [95 pts]: Warlord, Dread of the Deep Void, Waystave

## Battleline [90 pts]
Corsair Voidreavers [90 pts]: Infamy (Aura)
• 1x Voidreaver Felarch: Close combat weapon, Power sword, Shuriken pistol
• 4x Corsair Voidreavers: Close combat weapon, Power sword, Shuriken pistol
`, { file: 'p.txt' });
    expect(r.format).toBe('nr-plain');
    expect(units(r)).toEqual([KHARSETH, VOIDREAVERS]);
    expect(r.warnings).toEqual([]);
  });

  it('New Recruit WTC: "Enhancement: Infamy (Aura) (+25 pts)"', () => {
    const r = parseArmyList(`+++++++++++++++++++++++++++++++++++++++++++++++
+ FACTION KEYWORD: Xenos - Aeldari
+ DETACHMENT: Corsair Coterie
+ TOTAL ARMY POINTS: 185pts
+
+ WARLORD: Char1: Kharseth
+ ENHANCEMENT: Infamy (Aura) (on Corsair Voidreavers)
+ NUMBER OF UNITS: 2
+++++++++++++++++++++++++++++++++++++++++++++++

CHARACTER

Char1: 1x Kharseth (95 pts)
1 with Dread of the Deep Void, Waystave
  • Warlord

BATTLELINE

5x Corsair Voidreavers (90 pts)
• 1x Voidreaver Felarch
    1 with Close combat weapon, Power sword, Shuriken pistol
• 4x Corsair Voidreavers
    4 with Close combat weapon, Power sword, Shuriken pistol
Enhancement: Infamy (Aura) (+25 pts)
`, { file: 'p.txt' });
    expect(r.format).toBe('nr-wtc');
    expect(units(r)).toEqual([KHARSETH, VOIDREAVERS]);
    expect(r.warnings).toEqual(['the list names no battle size; Incursion (1000 points) assumed from the points']);
  });

  it('an unknown one is an error naming the Enhancement\'s line and its full name', () => {
    const text = gwApp('Infamy (Shadow)');
    expect(() => parseArmyList(text, { file: 'p.txt' })).toThrow(DataError);
    expect(() => parseArmyList(text, { file: 'p.txt' })).toThrow(/^p\.txt: line 25: unknown enhancement "Infamy \(Shadow\)" \(Aeldari\); closest: Infamy \(Aura\)/);
  });
});

describe('the app nests "• Warlord" under a model\'s bullet', () => {
  it('the model keeps the "◦" weapons listed after it', () => {
    const r = parseArmyList(`Ethereal Probe (65 Points)

T'au Empire
Kauyon
Incursion (1000 Points)

CHARACTERS

Aun'Va (65 Points)
  • 1x Aun'Va
     • Warlord
     ◦ 1x Close combat weapon
  • 2x Ethereal Guards
     ◦ 2x Supreme honour blade

Exported with App Version: v1.46.2 (1), Data Version: v732
`, { file: 'p.txt' });
    expect(units(r)).toEqual([
      { name: "Aun'va", points: 65, models: ["1 Aun'Va: Close combat weapon", '2 Ethereal Guards: Supreme honour blade'], warlord: true },
    ]);
    expect(r.warnings).toEqual([]);
  });
});

describe('New Recruit\'s compact WTC form (v35+): wargear on the unit and model lines', () => {
  it('"Char1: 1x Unit (N pts): items", "• 9x Model: 9 with ...", "1x Unit (N pts): items"; "Leading"/"Attached to" passed over', () => {
    const r = parseArmyList(`+++++++++++++++++++++++++++++++++++++++++++++++
+ FACTION KEYWORD: Xenos - T'au Empire
+ DETACHMENT: Kauyon
+ TOTAL ARMY POINTS: 285pts
+
+ WARLORD: Char1: Cadre Fireblade
+ ENHANCEMENT: Precision of the Patient Hunter (on Char1: Cadre Fireblade)
+ NUMBER OF UNITS: 4
+++++++++++++++++++++++++++++++++++++++++++++++

Char1: 1x Cadre Fireblade (65 pts): Warlord, Fireblade pulse rifle, Close combat weapon
Enhancement: Precision of the Patient Hunter (+15 pts)
Leading Strike Team

10x Strike Team (70 pts)
• 1x Fire Warrior Shas'ui: Pulse rifle, Pulse pistol, Close combat weapon
• 9x Fire Warriors: 9 with Pulse rifle, Pulse pistol, Close combat weapon
  Attached to Cadre Fireblade
10x Kroot Carnivores (65 pts)
• 1x Long-quill: Close combat weapon, Kroot pistol, Kroot carbine
• 9x Kroot Carnivores: 1 with Close combat weapon, Tanglebomb launcher, 8 with Close combat weapon, Kroot rifle
1x Devilfish (85 pts): Accelerator burst cannon, Armoured hull, 2x Twin pulse carbine

Created with newrecruit.eu v35.82
`, { file: 'p.txt' });
    expect(r.format).toBe('nr-wtc');
    expect(r.army.detachment).toBe('Kauyon');
    expect(units(r)).toEqual([
      { ...FIREBLADE, models: ['1 Cadre Fireblade: Fireblade pulse rifle, Close combat weapon'] },
      { ...STRIKE_TEAM, models: ["1 Fire Warrior Shas'ui: Pulse rifle, Pulse pistol, Close combat weapon", '9 Fire Warriors: Pulse rifle, Pulse pistol, Close combat weapon'] },
      {
        name: 'Kroot Carnivores',
        points: 65,
        models: ['1 Long-quill: Close combat weapon, Kroot pistol, Kroot carbine', '1 Kroot Carnivores: Close combat weapon, Tanglebomb launcher', '8 Kroot Carnivores: Close combat weapon, Kroot rifle'],
      },
      { name: 'Devilfish', points: 85, models: ['1 Devilfish: Accelerator burst cannon, Armoured hull, Twin pulse carbine, Twin pulse carbine'] },
    ]);
    expect(r.warnings).toEqual(['the list names no battle size; Incursion (1000 points) assumed from the points']);
  });

  it('a unit line with its wargear after the points is a unit, not dropped', () => {
    const r = parseArmyList(`+++++++++++++++++++++++++++++++++++++++++++++++
+ FACTION KEYWORD: Xenos - T'au Empire
+ DETACHMENT: Kauyon
+ TOTAL ARMY POINTS: 275pts
+
+ WARLORD: Char1: Cadre Fireblade
+ NUMBER OF UNITS: 3
+++++++++++++++++++++++++++++++++++++++++++++++

Char1: 1x Cadre Fireblade (50 pts): Warlord, Fireblade pulse rifle, Close combat weapon
1x Ghostkeel Battlesuit (160 pts): Cyclic ion raker, Ghostkeel fists, Twin fusion blaster

10x Kroot Carnivores (65 pts)

Created with newrecruit.eu v35.82
`, { file: 'p.txt' });
    expect(units(r)).toEqual([
      { name: 'Cadre Fireblade', points: 50, models: ['1 Cadre Fireblade: Fireblade pulse rifle, Close combat weapon'], warlord: true },
      { name: 'Ghostkeel Battlesuit', points: 160, models: ['1 Ghostkeel Battlesuit: Cyclic ion raker, Ghostkeel fists, Twin fusion blaster'] },
      { name: 'Kroot Carnivores', points: 65, models: ['1 Long-quill: Kroot pistol, Kroot rifle, Close combat weapon', '9 Kroot Carnivores: Kroot rifle, Close combat weapon'] },
    ]);
    expect(r.format).toBe('nr-wtc');
    expect(r.army.points).toBe(275);
    expect(r.warnings).toEqual(['the list names no battle size; Incursion (1000 points) assumed from the points']);
  });
});

describe('New Recruit\'s "+ DETACHMENT: Name (detachment rule)"', () => {
  const list = (detachment: string) => `+++++++++++++++++++++++++++++++++++++++++++++++
+ FACTION KEYWORD: Xenos - T'au Empire
+ DETACHMENT: ${detachment}
+ TOTAL ARMY POINTS: 65pts
+
+ WARLORD: Char1: Cadre Fireblade
+ NUMBER OF UNITS: 1
+++++++++++++++++++++++++++++++++++++++++++++++

CHARACTER

Char1: 1x Cadre Fireblade (65 pts)
1 with Fireblade pulse rifle, Close combat weapon
  • Warlord
Enhancement: Precision of the Patient Hunter (+15 pts)
`;

  it('the detachment is the name without its rule, and its Enhancement is its own', () => {
    const r = parseArmyList(list('Kauyon (Patient Hunter)'), { file: 'p.txt' });
    expect(r.army.detachment).toBe('Kauyon');
    expect(units(r)).toEqual([{ ...FIREBLADE, models: ['1 Cadre Fireblade: Fireblade pulse rifle, Close combat weapon'] }]);
    expect(r.warnings).toEqual(['the list names no battle size; Incursion (1000 points) assumed from the points']);
  });

  it('a name unknown with or without the parenthesis is kept as written and warned about', () => {
    const r = parseArmyList(list('Kauyun (Patient Hunter)'), { file: 'p.txt' });
    expect(r.army.detachment).toBe('Kauyun (Patient Hunter)');
    expect(r.warnings).toEqual([
      'line 12: Cadre Fireblade: Precision of the Patient Hunter is an enhancement of Kauyon, not Kauyun (Patient Hunter)',
      'detachment "Kauyun (Patient Hunter)" is not a T\'au Empire detachment in the data; closest: Kroot Raiding Party, Retaliation Cadre, Auxiliary Cadre',
      'the list names no battle size; Incursion (1000 points) assumed from the points',
    ]);
  });
});

describe('a model the list leaves with no weapon', () => {
  // the app's form with the Fire Warriors' weapon lines lost (as a hand edit or a broken export leaves it)
  const list = TAU_APP_LIST.replace('  • 9x Fire Warriors\n     ◦ 9x Close combat weapon\n     ◦ 9x Pulse pistol\n     ◦ 9x Pulse rifle\n', '  • 9x Fire Warriors\n');
  const DEFAULT = 'Pulse pistol, Pulse rifle, Close combat weapon';

  it('is warned about, naming its line, profile and the datasheet\'s default weapons', () => {
    const r = parseArmyList(list, { file: 'p.txt' });
    expect(units(r)[1].models).toEqual([STRIKE_TEAM.models[0], '9 Fire Warriors: ']);
    expect(r.warnings).toEqual([`line 22: Strike Team: 9 Fire Warriors: no weapon listed (the datasheet's default: ${DEFAULT}); they have no weapon in a game (--fit-wargear gives the default)`]);
  });

  it('takes its default weapons with --fit-wargear, said in the fitted warnings', () => {
    const r = parseArmyList(list, { file: 'p.txt', fitWargear: true });
    expect(units(r)[1].models).toEqual([STRIKE_TEAM.models[0], `9 Fire Warriors: ${DEFAULT}`]);
    const said = `line 22: Strike Team: 9 Fire Warriors: no weapon listed; given the default weapons (${DEFAULT})`;
    expect(r.warnings).toEqual([said]);
    expect(r.fitted).toEqual([said]);
  });

  it('a model whose datasheet gives it no weapon is not warned about', () => {
    // the Strike Team as listed in full: every model armed, no warning (the control of the two above)
    expect(list).not.toBe(TAU_APP_LIST);
    const r = parseArmyList(TAU_APP_LIST, { file: 'p.txt' });
    expect(units(r)[1]).toEqual(STRIKE_TEAM);
    expect(r.warnings).toEqual([]);
  });
});

describe('a unit of fewer models than the datasheet\'s smallest ("3x Stealth Battlesuits" where the data has 5)', () => {
  // the short form (listgrok's): one line a unit, no heading
  const short = `Commander Shadowsun (100pts): Warlord, Battlesuit fists, Flechette launcher, 2x High-energy fusion blaster, Light missile pod, Pulse pistol

3x Stealth Battlesuits (60pts)
`;
  // New Recruit's plain text, each model named
  const named = `Xenos - T'au Empire - Probe - [160 pts]

# ++ Army Roster ++ [160 pts]
## Configuration
Battle Size: Strike Force (2000 Point limit)
Detachment: Kauyon

## Epic Hero [100 pts]
Commander Shadowsun [100 pts]: Warlord, Battlesuit fists, Flechette launcher, 2x High-energy fusion blaster, Light missile pod, Pulse pistol

## Other Datasheets [60 pts]
Stealth Battlesuits [60 pts]:
• 1x Stealth Shas'vre: Battlesuit fists, Burst cannon
• 2x Stealth Shas'ui w/ burst cannon: Battlesuit fists, Burst cannon
`;
  it('keeps the list\'s count whether the list names its models or only their number, and says the size is not the datasheet\'s', () => {
    for (const text of [short, named]) {
      const r = parseArmyList(text);
      const stealth = r.army.units.find((u) => u.name === 'Stealth Battlesuits')!;
      expect(stealth.models.map((m) => `${m.count} ${m.profile}`), text).toEqual(["1 Stealth Shas'vre", "2 Stealth Shas'ui"]);
      expect(r.warnings.some((w) => w.includes('3 models is not a unit size of the datasheet (5)')), r.warnings.join('\n')).toBe(true);
    }
  });
});

describe('New Recruit GW and WTC exports: the header block and unit lines the parser cannot read (audit 18)', () => {
  const header = (warlord: string) => `+++++++++++++++++++++++++++++++++++++++++++++++
+ FACTION KEYWORD: Xenos - T'au Empire
+ DETACHMENT: Kauyon
+ TOTAL ARMY POINTS: 225pts
+
+ WARLORD: ${warlord}
+ NUMBER OF UNITS: 3
+++++++++++++++++++++++++++++++++++++++++++++++
`;
  const wtc = (warlord: string) => `${header(warlord)}
CHARACTER

Char1: 1x Cadre Fireblade (50 pts)
1 with Close combat weapon, Fireblade pulse rifle

Char2: 1x Cadre Fireblade (50 pts)
1 with Close combat weapon, Fireblade pulse rifle

BATTLELINE

10x Strike Team (70 pts)
• 1x Fire Warrior Shas'ui: 1 with Close combat weapon, Pulse pistol, Pulse rifle
• 9x Fire Warriors: 9 with Close combat weapon, Pulse pistol, Pulse rifle
`;

  it('the header\'s WARLORD line, after the lone "+" New Recruit writes, names the Warlord: the unit of its CharN', () => {
    for (const [n, index] of [['Char1', 0], ['Char2', 1]] as const) {
      const r = parseArmyList(wtc(`${n}: Cadre Fireblade`), { file: 'w.txt' });
      expect(r.army.units.map((u) => u.warlord ?? false)).toEqual([0, 1, 2].map((i) => i === index));
      expect(r.warnings.filter((w) => /Warlord/.test(w))).toEqual([]);
    }
  });

  it('a unit line it cannot read is said, and its model lines are not given to the unit above', () => {
    const typo = wtc('Char1: Cadre Fireblade').replace('10x Strike Team (70 pts)', '10x Strike Team [70 pts]');
    const r = parseArmyList(typo, { file: 'w.txt' });
    expect(r.army.units.map((u) => [u.name, u.models.reduce((n, m) => n + m.count, 0)])).toEqual([['Cadre Fireblade', 1], ['Cadre Fireblade', 1]]);
    expect(r.warnings[0]).toBe('line 20: "10x Strike Team [70 pts]" is neither a heading nor a unit ("<count>x <unit> (<points> pts)"); skipped');
    const plain = parseArmyList(`Xenos - T'au Empire - Probe - [120 pts]

## Character [50 pts]
Cadre Fireblade [50 pts]: Warlord, Close combat weapon, Fireblade pulse rifle
## Battleline [70 pts]
Strike Team (70 pts):
• 1x Fire Warrior Shas'ui: Close combat weapon, Pulse pistol, Pulse rifle
• 9x Fire Warriors: Close combat weapon, Pulse pistol, Pulse rifle
`, { file: 'p.txt' });
    expect(plain.army.units.map((u) => [u.name, u.models.reduce((n, m) => n + m.count, 0)])).toEqual([['Cadre Fireblade', 1]]);
    expect(plain.warnings[0]).toBe('line 6: "Strike Team (70 pts):" is neither a heading nor a unit ("<unit> [<points> pts]"); skipped');
    const short = parseArmyList('Cadre Fireblade (50pts): Warlord, Close combat weapon, Fireblade pulse rifle\n10x Strike Team (70 pt)\n', { file: 's.txt' });
    expect(short.army.units.map((u) => u.name)).toEqual(['Cadre Fireblade']);
    expect(short.warnings[0]).toBe('line 2: "10x Strike Team (70 pt)" is neither a heading nor a unit ("<count>x <unit> (<points>pts)"); skipped');
  });
});

describe('a unit\'s size counts the models its size lines price; each profile within its composition (audit 18)', () => {
  const list = (units: string) => `Xenos - Aeldari - Spectres - [400 pts]

## Configuration
Battle Size: Incursion (1000 Point limit)
Detachment: Aspect Host

## Character [75 pts]
Autarch [75 pts]: Warlord, Dragon fusion gun, Star glaive

## Other
${units}
`;
  it('1 Shadow Spectre Exarch and 5 Shadow Spectres: the 5-model size (115) and the Exarch (+30), no size warning', () => {
    const r = parseArmyList(list(`Shadow Spectres [145 pts]:
• 1x Shadow Spectre Exarch: Prism rifle, Close combat weapon
• 5x Shadow Spectres: Prism rifle, Close combat weapon`), { file: 's.txt' });
    expect(r.army.units.map((u) => [u.name, u.points])[1]).toEqual(['Shadow Spectres', 145]);
    expect(r.warnings.filter((w) => /Spectre/.test(w))).toEqual([]);
  });

  it('a profile over its maximum is said ("0-1 Shadow Spectre Exarch"), one under its minimum in a unit of a legal size too', () => {
    const r = parseArmyList(list(`Shadow Spectres [175 pts]:
• 2x Shadow Spectre Exarch: Prism rifle, Close combat weapon
• 5x Shadow Spectres: Prism rifle, Close combat weapon
Corsair Voidscarred [80 pts]:
• 1x Voidscarred Felarch: Shuriken pistol, Power sword
• 1x Shade Runner: Shuriken pistol, Paired Hekatarii blades
• 3x Corsair Voidscarred: Shuriken pistol, Power sword`), { file: 's.txt' });
    expect(r.warnings.filter((w) => /takes/.test(w))).toEqual([
      'Shadow Spectres (u2) has 2 Shadow Spectre Exarch: Shadow Spectres takes 0-1',
      'Corsair Voidscarred (u3) has 3 Corsair Voidscarred: Corsair Voidscarred takes 4-9',
    ]);
  });
});

describe('an extra cost for wargear, not a model (audit 18)', () => {
  const list = (platform: boolean, points: number) => `Tidewall Probe (${50 + points} Points)

T'au Empire
Kauyon
Strike Force (2,000 Points)

CHARACTERS

Cadre Fireblade (50 Points)
  • Warlord
  • 1x Close combat weapon
  • 1x Fireblade pulse rifle

FORTIFICATION

Tidewall Shieldline (${points} Points)${platform ? '\n  • 1x Tidewall defence platform' : ''}

Exported with App Version: v1.53.0 (1), Data Version: v780
`;

  it('a Tidewall Shieldline with its Tidewall defence platform costs 85 + 20; without it, 85', () => {
    const withIt = parseArmyList(list(true, 105), { file: 't.txt' });
    const shieldline = withIt.army.units.find((u) => u.name === 'Tidewall Shieldline')!;
    expect(shieldline.models[0].wargear).toEqual(['Tidewall defence platform']);
    expect(shieldline.points).toBe(105);
    expect(withIt.warnings.filter((w) => /Tidewall|points/i.test(w))).toEqual([]);
    const without = parseArmyList(list(false, 85), { file: 't.txt' });
    expect(without.army.units.find((u) => u.name === 'Tidewall Shieldline')!.points).toBe(85);
    expect(without.warnings.filter((w) => /Tidewall|points/i.test(w))).toEqual([]);
  });
});
