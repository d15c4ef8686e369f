// Apart from s3-peer.ts so that playwright.config.ts can point a server at
// the peer without loading s3rver into the test runner.
export const PEER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** The environment that points the server's S3 disk at a peer on `endpoint`. */
export function s3PeerEnv(endpoint: string, bucket: string): Record<string, string> {
  return {
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: endpoint,
    S3_REGION: 'us-east-1',
    S3_BUCKET: bucket,
    S3_ACCESS_KEY_ID: PEER_CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: PEER_CREDENTIALS.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
  };
}
