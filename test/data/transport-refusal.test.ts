// Who a TRANSPORT carries, as its datasheet's `transport` fields say; a capacity the importer could not read
// (a Necron Ghost Ark's "10 Necron Warrior models and 1 ... Character model", marked unparsed with no
// keywords) let every unit in before it refused none.
import { describe, expect, it } from 'vitest';
import { transportRefusal } from '../../src/data/transport-capacity.ts';

const has = (...kws: string[]) => (k: string) => kws.includes(k);

describe('transportRefusal', () => {
  const wave = { capacity: 11, keywords: ['ASURYANI', 'INFANTRY'], excludedKeywords: ['WRAITH CONSTRUCT', 'JUMP PACK'] };
  it('takes a unit with every keyword it names and none it bars', () => {
    expect(transportRefusal(wave, has('ASURYANI', 'INFANTRY'))).toBeNull();
    expect(transportRefusal(wave, has('ASURYANI'))).toMatch(/lacks the keyword INFANTRY/);
    expect(transportRefusal(wave, has('ASURYANI', 'INFANTRY', 'JUMP PACK'))).toMatch(/cannot carry JUMP PACK/);
  });
  it('a capacity the data did not let the importer read takes nobody', () => {
    const unread = { capacity: 11, keywords: [], excludedKeywords: [], unparsed: true };
    expect(transportRefusal(unread, has('NECRONS', 'INFANTRY'))).toMatch(/not understood/);
    // read in part (keywords kept): as read
    expect(transportRefusal({ ...wave, unparsed: true }, has('ASURYANI', 'INFANTRY'))).toBeNull();
  });
});
