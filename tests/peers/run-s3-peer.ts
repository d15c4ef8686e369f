import { startS3Peer } from './s3-peer.js';

// The S3 peer as a process of its own, for playwright.config.ts: a web server
// entry starts it (before the server that uses it) on S3_PEER_PORT and stops
// it with SIGTERM, when the peer's temporary folder goes with it.
const port = Number(process.env.S3_PEER_PORT);
if (!Number.isInteger(port) || port <= 0) throw new Error('S3_PEER_PORT: a port number is required');
const peer = await startS3Peer({ port, bucket: process.env.S3_PEER_BUCKET });
const stop = () => {
  void peer.close().finally(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
