import { describe, expect, it } from 'vitest';
import { summarize } from '../../../src/features/uploads/upload-summary';
import { makeItem } from './helpers';

describe('the upload panel headline', () => {
  const queued = [
    makeItem({ id: 'a', status: 'pending', size: 1000, bytesUploaded: 0 }),
    makeItem({ id: 'b', status: 'inProgress', size: 3000, bytesUploaded: 1000 }),
  ];

  it('online: how many files are uploading and how far', () => {
    expect(summarize(queued, true)).toMatchObject({ key: 'Uploading :count files', count: 2, percentage: 25 });
  });

  it('offline: that they wait for the network, how many and how much, and that they resume by themselves', () => {
    const summary = summarize(queued, false);
    expect(summary).toMatchObject({ key: 'Waiting for network: :count files (:size) will upload by themselves', count: 2, values: { size: '2.9 KB' } });
  });

  it('finished: failures first, else the completed count', () => {
    expect(summarize([makeItem({ id: 'c', status: 'completed' }), makeItem({ id: 'd', status: 'failed' })], false).key).toBe(':count uploads failed');
    expect(summarize([makeItem({ id: 'c', status: 'completed' })], true)).toMatchObject({ key: ':count uploads complete', count: 1 });
  });
});
