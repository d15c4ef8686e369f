import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { TestClient } from '../support/client.js';
import type { Person } from '../support/app-with-owner.js';

export type { Person };

export interface LinkSettings {
  allowDownload?: boolean;
  fileDrop?: boolean;
  password?: string | null;
  expiresAt?: string | null;
  maxDownloads?: number | null;
}

export interface Link {
  id: number;
  token: string;
  url: string;
  has_password: boolean;
  download_count: number;
  view_count: number;
}

/** Makes a link as its owner would; fails the test if the server refuses. */
export async function makeLink(owner: Person, hash: string, settings: LinkSettings = {}): Promise<Link> {
  const response = await owner.client.post(`/api/v1/file-entries/${hash}/share-links`, settings);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().link as Link;
}

/** A fresh browser: no session, no cookies but the ones the link hands out. */
export const guest = (app: FastifyInstance, address?: string) => {
  const client = new TestClient(app);
  if (address) client.remoteAddress = address;
  return client;
};

export const linkPath = (token: string, rest = '') => `/api/v1/shared-links/${token}${rest}`;
