import { describe, expect, it } from 'vitest';
import type { Selection } from '../../../src/features/notifications/api/types';
import { groupState, nextGroupValue, setChannel, shownSelections } from '../../../src/features/notifications/lib/group-state';

const sel = (notif_id: string, email: boolean, browser: boolean): Selection => ({ notif_id, channels: { email, browser } });

describe('preference group checkboxes (spec §2)', () => {
  const selections = [sel('W01', true, false), sel('A01', true, true)];

  it('is set when every entry has the channel, clear when none, indeterminate in between', () => {
    expect(groupState(selections, ['W01', 'A01'], 'email')).toBe('all');
    expect(groupState(selections, ['W01', 'A01'], 'browser')).toBe('some');
    expect(groupState([sel('W01', false, false), sel('A01', false, false)], ['W01', 'A01'], 'email')).toBe('none');
  });

  it('sets or clears the channel for every entry of the group, leaving the other channel alone', () => {
    const next = setChannel(selections, ['W01', 'A01'], 'browser', nextGroupValue('some'));
    expect(next).toEqual([sel('W01', true, true), sel('A01', true, true)]);
    expect(setChannel(next, ['W01', 'A01'], 'email', nextGroupValue('all'))).toEqual([sel('W01', false, true), sel('A01', false, true)]);
    expect(setChannel(selections, ['W01'], 'browser', true)).toEqual([sel('W01', true, true), sel('A01', true, true)]);
  });
});

describe('the browser channel before the browser was asked (issue 32.7)', () => {
  it('reads off until this browser granted permission, whatever the server stored', () => {
    const server = [sel('W01', true, true), sel('A01', false, true)];
    expect(shownSelections(server, false)).toEqual([sel('W01', true, false), sel('A01', false, false)]);
    expect(shownSelections(server, true)).toEqual(server);
  });
});
