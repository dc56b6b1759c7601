import { createHash } from 'node:crypto';

/** Kept compact because big bases hold hundreds of thousands; urls and thumbnails are derived when read. */
export interface StoredAttachment {
  id: string;
  filename: string;
  /** Absent on purpose for some attachments: the real API does not guarantee `size`. */
  size?: number;
  type: string;
  width?: number;
  height?: number;
}

export interface Thumbnail {
  url: string;
  width: number;
  height: number;
}

export interface AttachmentResponse {
  id: string;
  url: string;
  filename: string;
  size?: number;
  type: string;
  width?: number;
  height?: number;
  thumbnails?: { small: Thumbnail; large: Thumbnail; full?: Thumbnail };
}

export interface NewAttachment {
  url: string;
  filename?: string;
  /** Sandbox-only: a byte size to record instead of the url-derived one; null records no size at all. */
  size?: number | null;
}

const URL_ROOT = 'https://sandbox.invalid';
const MAX_DERIVED_SIZE = 8 * 1024 * 1024;

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  zip: 'application/zip',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  mp3: 'audio/mpeg',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export function contentTypeFor(filename: string): string {
  const extension = filename.slice(filename.lastIndexOf('.') + 1).toLowerCase();
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}

/** A missing size counts as 0 bytes in every total the sandbox computes. */
export function attachmentBytes(attachment: StoredAttachment): number {
  return attachment.size ?? 0;
}

export function createAttachment(id: string, input: NewAttachment): StoredAttachment {
  const digest = createHash('sha256').update(input.url).digest();
  const filename = input.filename ?? filenameFromUrl(input.url);
  const type = contentTypeFor(filename);
  const attachment: StoredAttachment = { id, filename, type };
  if (input.size !== null) attachment.size = input.size ?? 1024 + (digest.readUInt32BE(0) % MAX_DERIVED_SIZE);
  if (type.startsWith('image/')) {
    attachment.width = 320 + (digest.readUInt16BE(4) % 3681);
    attachment.height = 240 + (digest.readUInt16BE(6) % 2761);
  }
  return attachment;
}

export function toAttachmentResponse(attachment: StoredAttachment): AttachmentResponse {
  const response: AttachmentResponse = {
    id: attachment.id,
    url: `${URL_ROOT}/${attachment.id}/${encodeURIComponent(attachment.filename)}`,
    filename: attachment.filename,
    type: attachment.type,
  };
  if (attachment.size !== undefined) response.size = attachment.size;
  if (attachment.width !== undefined && attachment.height !== undefined) {
    response.width = attachment.width;
    response.height = attachment.height;
  }
  const thumbnails = thumbnailsFor(attachment);
  if (thumbnails) response.thumbnails = thumbnails;
  return response;
}

function thumbnailsFor(attachment: StoredAttachment): AttachmentResponse['thumbnails'] {
  const url = (size: string) => `${URL_ROOT}/${attachment.id}/thumbnails/${size}`;
  const { width, height } = attachment;
  if (width !== undefined && height !== undefined) {
    const largeScale = Math.min(1, 512 / Math.max(width, height));
    return {
      small: { url: url('small'), width: Math.max(1, Math.round((width * 36) / height)), height: 36 },
      large: { url: url('large'), width: Math.round(width * largeScale), height: Math.round(height * largeScale) },
      full: { url: url('full'), width, height },
    };
  }
  if (attachment.type === 'application/pdf') {
    return { small: { url: url('small'), width: 28, height: 36 }, large: { url: url('large'), width: 396, height: 512 } };
  }
  return undefined;
}

function filenameFromUrl(url: string): string {
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).pop();
    return last ? decodeURIComponent(last) : 'file';
  } catch {
    return 'file';
  }
}
