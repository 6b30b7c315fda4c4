import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from '@20minutes/s3rver';

// A real S3-protocol server (s3rver, from npm) on 127.0.0.1 and a free port, its objects in a
// temporary folder, with the given buckets made: what FILES_URL points the nodes at in tests.

export interface S3Server {
  endpoint: string;
  /** The settings a node needs to store its files in `bucket` under `prefix`. */
  env(bucket: string, prefix?: string): Record<string, string>;
  /** Every key in `bucket` (under `prefix`). */
  keys(bucket: string, prefix?: string): Promise<string[]>;
  close(): Promise<void>;
}

export async function startS3Server(buckets: string[]): Promise<S3Server> {
  const directory = mkdtempSync(path.join(tmpdir(), 'sp-s3-'));
  // allowMismatchedSignatures: s3rver signs a bucket-level request (HeadBucket, ListObjectsV2) as
  // `/bucket` where aws-sdk v3 signs `/bucket/`, and answers 403 to those alone. The key's access id
  // is still checked; object requests (put, get, head, delete) are signed alike by both.
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, allowMismatchedSignatures: true, configureBuckets: buckets.map((name) => ({ name })) });
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
  return {
    endpoint,
    env: (bucket, prefix) => ({
      FILES_URL: `s3://${bucket}${prefix ? `/${prefix}` : ''}`,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    }),
    async keys(bucket, prefix) {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      return (listed.Contents ?? []).map((entry) => entry.Key!).sort();
    },
    async close() {
      client.destroy();
      const http = (server as unknown as { httpServer?: import('node:http').Server }).httpServer;
      http?.closeAllConnections();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
