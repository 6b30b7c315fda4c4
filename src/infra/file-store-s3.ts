import path from 'node:path';
import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from '../config.js';
import { FileStore } from './file-store.js';

// Files in an S3-compatible object store (AWS S3, MinIO, R2), shared by every node. Paths are
// checked exactly as the local store checks them (the inherited `resolve`, against a virtual root),
// so a path that escapes a folder is refused the same way, and the canonical relative path is the
// object's key under the configured prefix. Who may read which file is decided above the store
// (src/modules/files/service.ts), from the database, whichever store holds the bytes.

const virtualRoot = path.resolve('/s3-file-store');

type Sdk = typeof import('@aws-sdk/client-s3');

export class S3FileStore extends FileStore {
  /** The SDK, loaded by `init` (about 200 ms of imports that a node without FILES_URL never pays). */
  private sdk!: Sdk;
  client!: S3Client;

  constructor(readonly settings: S3Settings) {
    super(virtualRoot);
  }

  private connect(sdk: Sdk) {
    const { settings } = this;
    this.sdk = sdk;
    this.client = new sdk.S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials: settings.credentials,
      // Checksums only where the protocol requires them: not every S3-compatible store knows the newer ones.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /** Where this store keeps its files, for logs: s3://bucket/prefix. */
  get location() {
    return `s3://${this.settings.bucket}${this.settings.prefix ? `/${this.settings.prefix}` : ''}`;
  }

  /** The object key of a client-supplied path, or a refusal (400) for a path outside the store. */
  key(relative: string) {
    const canonical = path.relative(this.root, this.resolve(relative)).split(path.sep).join('/');
    return this.settings.prefix ? `${this.settings.prefix}/${canonical}` : canonical;
  }

  /** Checks that the bucket answers; a missing bucket is an error at start, not at the first upload. */
  override async init() {
    this.connect(await import('@aws-sdk/client-s3'));
    try {
      await this.client.send(new this.sdk.HeadBucketCommand({ Bucket: this.settings.bucket }));
    } catch (error) {
      throw new Error(`FILES_URL: bucket ${this.settings.bucket} cannot be reached: ${(error as Error).name} ${(error as Error).message}`, { cause: error });
    }
  }

  /** For /ready: whether the bucket answers (a node that cannot store files is not ready). */
  override async writable() {
    try {
      await this.client.send(new this.sdk.HeadBucketCommand({ Bucket: this.settings.bucket }));
      return true;
    } catch {
      return false;
    }
  }

  override async write(relative: string, bytes: Uint8Array) {
    await this.client.send(new this.sdk.PutObjectCommand({ Bucket: this.settings.bucket, Key: this.key(relative), Body: bytes, ContentLength: bytes.length }));
  }

  override async exists(relative: string) {
    try {
      await this.client.send(new this.sdk.HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.key(relative) }));
      return true;
    } catch (error) {
      if (error instanceof this.sdk.NotFound || error instanceof this.sdk.NoSuchKey || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
      throw error;
    }
  }

  /** The object's bytes as a stream: they are passed on as they arrive, never held whole. */
  override read(relative: string): Readable {
    const key = this.key(relative);
    const { client, settings, sdk } = this;
    return Readable.from(
      (async function* () {
        const answer = await client.send(new sdk.GetObjectCommand({ Bucket: settings.bucket, Key: key }));
        if (!answer.Body) return;
        for await (const chunk of answer.Body as Readable) yield chunk as Buffer;
      })(),
      { objectMode: false },
    );
  }

  override async remove(relative: string) {
    await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.key(relative) }));
  }

}
