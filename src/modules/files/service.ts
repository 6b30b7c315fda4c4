import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { badInput, forbidden, notFound } from '../../errors.js';
import type { Db } from '../../infra/database.js';
import type { EventLog } from '../../infra/event-log.js';
import type { FileStore } from '../../infra/file-store.js';
import type { StoredFile } from '../../generated/prisma/client.js';
import type { Principal } from '../auth/principal.js';
import type { TeammateRecord, TeammateService } from '../teammates/service.js';
import { roleAtLeast } from '../teammates/roles.js';
import { isAttachedFor } from './attachments.js';
import { detectContentType, isAllowedType } from './content-type.js';
import { sanitiseFileName, thumbnailName } from './file-name.js';
import { tooLarge, type Upload } from './multipart.js';
import { Thumbnailer, thumbnailTypes } from './thumbnail.js';

export type StoredFileRecord = StoredFile;

export interface FileLimits {
  maxBytes: number;
  allowedTypes: readonly string[];
  /** Largest image (width x height) decoded for a thumbnail. */
  maxPixels: number;
}

export interface UploadResult {
  message: string;
  /** Storage path: what GET /files, /files/download and /images take as `path`. */
  filename: string;
  thumbnail?: string;
  contentType: string;
  size: number;
}

interface StoreOptions {
  owner: string;
  folder: 'files' | 'images';
  projectId: string | null;
  requireImage: boolean;
}

// Who may read a file: its uploader; for a project upload, the project's teammates (agent and
// above), and visitors (users, guests) whose conversation it is attached to (see attachments.ts).
// Who may delete it: its uploader, and the admins of that project.
export class FileService {
  constructor(
    private db: Db,
    private events: EventLog,
    private store: FileStore,
    private teammates: TeammateService,
    readonly limits: FileLimits,
  ) {
    this.thumbnails = new Thumbnailer(limits.maxPixels);
  }

  private thumbnails: Thumbnailer;

  // Uploads take `receive`, which reads the body, so nothing is read before the caller is allowed.

  /** A user's own file (POST /files/users): readable by them alone. */
  async uploadFile(principal: Principal, receive: () => Promise<Upload>) {
    const options = { owner: `users/${principal.userId}`, folder: 'files', projectId: null, requireImage: false } as const;
    return this.save(principal, await receive(), options);
  }

  /** A user's own image (POST /images/users), stored with a thumbnail. */
  async uploadImage(principal: Principal, receive: () => Promise<Upload>) {
    const options = { owner: `users/${principal.userId}`, folder: 'images', projectId: null, requireImage: true } as const;
    return this.save(principal, await receive(), options);
  }

  /** A chat attachment, by any member: readable by the project's teammates and the conversations it is sent in; images get a thumbnail. */
  async uploadToProject(projectId: string, principal: Principal, receive: () => Promise<Upload>) {
    if (!(await this.teammates.membership(projectId, principal))) throw forbidden();
    const options = { owner: `projects/${projectId}`, folder: 'files', projectId, requireImage: false } as const;
    return this.save(principal, await receive(), options);
  }

  /** The record of a file the caller may read, and its bytes. */
  async open(principal: Principal, rawPath: unknown, options: { image?: boolean } = {}) {
    const file = await this.authorised(principal, rawPath, 'read');
    if (options.image && !file.contentType.startsWith('image/')) throw badInput('path', 'path: does not name an image');
    if (!(await this.store.exists(file.path))) throw notFound('file');
    return { file, stream: this.store.read(file.path) };
  }

  async remove(principal: Principal, rawPath: unknown) {
    const file = await this.authorised(principal, rawPath, 'delete');
    const paths = [file.path, ...(file.thumbnail ? [file.thumbnail] : [])];
    await this.events.transaction(async (tx, emit) => {
      await tx.storedFile.deleteMany({ where: { path: { in: paths } } });
      // Deleting a thumbnail on its own leaves its image without one.
      await tx.storedFile.updateMany({ where: { thumbnail: file.path }, data: { thumbnail: null } });
      if (file.id_project) await emit({ projectId: file.id_project, name: 'file.delete', subject: file.id, payload: { path: file.path } });
    });
    for (const stored of paths) await this.store.remove(stored);
    return { message: 'File deleted', filename: file.path };
  }

  private async save(principal: Principal, upload: Upload, options: StoreOptions): Promise<UploadResult> {
    const { bytes } = upload;
    if (bytes.length > this.limits.maxBytes) throw tooLarge(this.limits.maxBytes);
    if (bytes.length === 0) throw badInput('file', 'file: is empty');
    const contentType = await detectContentType(bytes, upload.filename);
    const isImage = thumbnailTypes.has(contentType);
    if (options.requireImage && !isImage) {
      throw badInput('file', `file: must be a PNG, JPEG, GIF, BMP or TIFF image; its content is ${contentType}`);
    }
    if (!isAllowedType(contentType, this.limits.allowedTypes)) {
      throw badInput('file', `file: ${contentType} files are not accepted`);
    }
    const thumbnail = isImage && (options.requireImage || options.projectId) ? await this.thumbnails.make(bytes, contentType) : null;

    const directory = `${options.owner}/${options.folder}/${randomUUID()}`;
    const name = sanitiseFileName(upload.filename);
    const filePath = `${directory}/${name}`;
    const thumbnailPath = thumbnail ? `${directory}/${thumbnailName(name, thumbnail.type)}` : null;

    await this.store.write(filePath, bytes);
    if (thumbnail && thumbnailPath) {
      // The file without its thumbnail is not kept either (a disk that filled between the two).
      await this.store.write(thumbnailPath, thumbnail.bytes).catch(async (error: unknown) => {
        await this.store.remove(filePath);
        throw error;
      });
    }
    try {
      await this.events.transaction(async (tx, emit) => {
        const owner = { id_project: options.projectId, createdBy: principal.userId };
        if (thumbnail && thumbnailPath) {
          await tx.storedFile.create({
            data: { ...owner, path: thumbnailPath, contentType: thumbnail.type, size: thumbnail.bytes.length },
          });
        }
        const file = await tx.storedFile.create({
          data: { ...owner, path: filePath, contentType, size: bytes.length, thumbnail: thumbnailPath },
        });
        if (options.projectId) {
          await emit({ projectId: options.projectId, name: 'file.create', subject: file.id, payload: { path: filePath } });
        }
      });
    } catch (error) {
      await this.store.remove(filePath);
      if (thumbnailPath) await this.store.remove(thumbnailPath);
      throw error;
    }
    return {
      message: `${options.folder === 'images' ? 'Image' : 'File'} uploaded successfully`,
      filename: filePath,
      ...(thumbnailPath ? { thumbnail: thumbnailPath } : {}),
      contentType,
      size: bytes.length,
    };
  }

  /**
   * The file at `rawPath` if the caller may read it (and, for `delete`, delete it). A file the
   * caller may not read is not found, as if nothing were stored there: its path reveals nothing.
   */
  private async authorised(principal: Principal, rawPath: unknown, need: 'read' | 'delete') {
    const file = await this.db.storedFile.findUnique({ where: { path: this.storagePath(rawPath) } });
    if (!file) throw notFound('file');
    if (file.createdBy === principal.userId) return file;
    const member = file.id_project ? await this.teammates.membership(file.id_project, principal) : null;
    if (!member || !(await this.mayRead(member, file))) throw notFound('file');
    if (need === 'delete' && !roleAtLeast(member.role, 'admin')) {
      throw forbidden('only the uploader or a project admin may delete this file');
    }
    return file;
  }

  /** Teammates (agent and above) read every file of their project; visitors those attached to their conversations. */
  private async mayRead(member: TeammateRecord, file: StoredFile) {
    if (roleAtLeast(member.role, 'agent')) return true;
    return isAttachedFor(this.db, member, file, (raw) => {
      try {
        return this.storagePath(raw);
      } catch {
        return null;
      }
    });
  }

  /** The canonical store-relative path of a client-supplied one; escapes and encodings answer 400. */
  private storagePath(rawPath: unknown): string {
    if (typeof rawPath !== 'string' || !rawPath) throw badInput('path', 'path: is required');
    const full = this.store.resolve(rawPath);
    return path.relative(this.store.root, full).split(path.sep).join('/');
  }
}
