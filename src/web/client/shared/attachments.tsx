import { useEffect, useState, type DragEvent, type RefObject } from 'react';
import { graphql } from '../gql/index.js';
import { apiBase, request } from '../api.js';
import type { ChatMessage } from './messages.js';

// File and image attachments, the same in the widget and the console: the file is uploaded to the
// project (POST /v3/:project_id/files, with progress), then sent as a message of type `image` or
// `file` whose metadata names it (`src`, the download URL with `?path=`; `thumbnail` for images;
// `name`, `type`, `size`). Reading a file needs the reader's token, which an <img src> cannot
// send: files are fetched with it and shown from a blob URL.

const Limits = graphql(`
  query FileLimits {
    fileLimits { maxBytes allowedTypes }
  }
`);

export interface Limits {
  maxBytes: number;
  allowedTypes: string[];
}

let limits: Promise<Limits> | null = null;
/** The server's upload limits, read once per page. */
export function fileLimits(): Promise<Limits> {
  limits ??= request(Limits, {}).then((r) => r.fileLimits);
  limits.catch(() => (limits = null));
  return limits;
}

const accepts = (allowed: string[], type: string) =>
  allowed.some((a) => a === type || (a.endsWith('/*') && type.startsWith(a.slice(0, -1))));

export const sizeText = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(0)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Why the server would refuse `file`, or null. The browser's type is a hint: the server reads the bytes. */
export async function refusal(file: File): Promise<string | null> {
  const { maxBytes, allowedTypes } = await fileLimits();
  if (file.size > maxBytes) return `${file.name} is ${sizeText(file.size)}: files may be at most ${sizeText(maxBytes)}.`;
  if (file.size === 0) return `${file.name} is empty.`;
  if (file.type && !accepts(allowedTypes, file.type)) return `${file.name}: files of type ${file.type} are not accepted.`;
  return null;
}

export interface Uploaded {
  filename: string;
  thumbnail?: string;
  contentType: string;
  size: number;
}

/** Uploads `file` to the project, reporting progress from 0 to 1; rejects with the server's message. */
export function upload(projectId: string, token: string, file: File, onProgress: (fraction: number) => void): Promise<Uploaded> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${apiBase()}/v3/${encodeURIComponent(projectId)}/files`);
    xhr.setRequestHeader('authorization', token);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {}
      if (xhr.status === 200) resolve(body as unknown as Uploaded);
      else reject(new Error(typeof body.message === 'string' ? body.message : `upload failed (${xhr.status})`));
    };
    xhr.onerror = () => reject(new Error('upload failed: the connection was lost'));
    const form = new FormData();
    form.set('file', file);
    xhr.send(form);
  });
}

/** The message that carries an uploaded file. */
export function attachmentMessage(file: File, uploaded: Uploaded) {
  const src = `${apiBase()}/v3/files?path=${encodeURIComponent(uploaded.filename)}`;
  const image = uploaded.contentType.startsWith('image/') && !!uploaded.thumbnail;
  return {
    type: image ? 'image' : 'file',
    text: file.name,
    metadata: {
      src,
      name: file.name,
      type: uploaded.contentType,
      size: uploaded.size,
      ...(image ? { thumbnail: `${apiBase()}/v3/images?path=${encodeURIComponent(uploaded.thumbnail!)}` } : {}),
    },
  };
}

/** A blob URL of `url` fetched with the reader's token (null while loading or when refused). */
export function useAuthorizedUrl(url: string | undefined, token: string | null): string | null {
  const [blobUrl, setBlobUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!url) return;
    // Images from elsewhere (a bot's tdImage) need no token.
    if (!url.startsWith(`${apiBase()}/v3/`) && !url.startsWith('/v3/')) {
      setBlobUrl(url);
      return;
    }
    let made: string | null = null;
    let cancelled = false;
    fetch(url, { headers: token ? { authorization: token } : {} })
      .then((res) => (res.ok ? res.blob() : null))
      .then((blob) => {
        if (!blob || cancelled) return;
        made = URL.createObjectURL(blob);
        setBlobUrl(made);
      })
      .catch(() => {});
    return () => {
      cancelled = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [url, token]);
  return blobUrl;
}

/** Saves the file `url` names, fetched with the reader's token. */
export async function download(url: string, name: string, token: string | null) {
  const res = await fetch(url, { headers: token ? { authorization: token } : {} });
  if (!res.ok) throw new Error(`download failed (${res.status})`);
  const blobUrl = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = blobUrl;
  a.download = name;
  a.rel = 'noopener';
  a.click();
  setTimeout(() => URL.revokeObjectURL(blobUrl), 10_000);
}

/** An image message (its thumbnail, opening the full image) or a file message (a download link). */
export function Attachment({ message, token, prefix }: { message: ChatMessage; token: string | null; prefix: string }) {
  const meta = (message.metadata ?? {}) as { src?: string; thumbnail?: string; name?: string; size?: number };
  const imageUrl = useAuthorizedUrl(message.type === 'image' ? meta.thumbnail ?? meta.src : undefined, token);
  if (message.type === 'image' && meta.src) {
    return (
      <button type="button" className={`${prefix}attachment-image`} onClick={() => void download(meta.src!, meta.name ?? 'image', token)} aria-label={`Open image ${meta.name ?? ''}`}>
        {imageUrl ? <img src={imageUrl} alt={meta.name ?? message.text ?? 'image'} data-testid="attachment-image" /> : <span>Loading image…</span>}
      </button>
    );
  }
  if (message.type === 'file' && meta.src) {
    return (
      <a
        className={`${prefix}attachment-file`}
        href={meta.src}
        data-testid="attachment-file"
        onClick={(e) => {
          e.preventDefault();
          void download(meta.src!, meta.name ?? 'file', token);
        }}
      >
        <PaperclipIcon /> {meta.name ?? 'file'}
        {meta.size ? ` (${sizeText(meta.size)})` : ''}
      </a>
    );
  }
  return null;
}

/** Ticks for a message the reader sent: sent, delivered, seen. */
export function receiptText(status: number) {
  if (status >= 300) return { mark: '✓✓', label: 'Seen' };
  if (status >= 150) return { mark: '✓✓', label: 'Delivered' };
  return { mark: '✓', label: 'Sent' };
}

/**
 * A paperclip drawn as SVG: the emoji needs a colour-emoji font, which many desktops (and the test
 * browser) lack, where it showed as an empty box.
 */
export function PaperclipIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" focusable="false" style={{ verticalAlign: 'text-bottom' }}>
      <path
        d="M21.4 11.1l-8.5 8.5a5.5 5.5 0 0 1-7.8-7.8l8.5-8.5a3.7 3.7 0 0 1 5.2 5.2l-8.5 8.5a1.8 1.8 0 0 1-2.6-2.6l7.8-7.8"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** The hidden file input a paperclip button opens: the picked file goes to `onFile`, and the input is emptied for the next. */
export function FilePicker({ inputRef, className, onFile }: { inputRef: RefObject<HTMLInputElement | null>; className: string; onFile: (file: File) => void }) {
  return (
    <input
      ref={inputRef}
      type="file"
      className={className}
      aria-label="Attach a file"
      tabIndex={-1}
      onChange={(e) => {
        const file = e.target.files?.[0];
        e.target.value = '';
        if (file) onFile(file);
      }}
    />
  );
}

/** Props that make an element take a dropped file (`dragging` says when one is over it). */
export function dropTarget(enabled: boolean, setDragging: (over: boolean) => void, onFile: (file: File) => void) {
  return {
    onDragOver: (e: DragEvent) => {
      if (!enabled) return;
      e.preventDefault();
      setDragging(true);
    },
    onDragLeave: () => setDragging(false),
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      setDragging(false);
      const file = e.dataTransfer.files?.[0];
      if (file) onFile(file);
    },
  };
}
