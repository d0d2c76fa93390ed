// File hosting: the bytes behind url_private_download, the pre-signed upload URL that files.uploadV2 posts to, and how
// Slack names a file's type. Bytes stay in memory; sandboxes are short-lived.
import { randomBytes } from 'node:crypto';
import type { SandboxFile, SlackModel } from './model.js';

const TYPES: Record<string, { filetype: string; mimetype: string }> = {
  xlsx: { filetype: 'xlsx', mimetype: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  xls: { filetype: 'xls', mimetype: 'application/vnd.ms-excel' },
  csv: { filetype: 'csv', mimetype: 'text/csv' },
  pdf: { filetype: 'pdf', mimetype: 'application/pdf' },
  png: { filetype: 'png', mimetype: 'image/png' },
  jpg: { filetype: 'jpg', mimetype: 'image/jpeg' },
  jpeg: { filetype: 'jpg', mimetype: 'image/jpeg' },
  gif: { filetype: 'gif', mimetype: 'image/gif' },
  svg: { filetype: 'svg', mimetype: 'image/svg+xml' },
  txt: { filetype: 'text', mimetype: 'text/plain' },
  json: { filetype: 'json', mimetype: 'application/json' },
  zip: { filetype: 'zip', mimetype: 'application/zip' },
  docx: { filetype: 'docx', mimetype: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
};

/** Slack's filetype and the MIME type, from the file name's extension ("binary" when unknown). */
export function fileTypeOf(name: string): { filetype: string; mimetype: string } {
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  return (ext !== undefined ? TYPES[ext] : undefined) ?? { filetype: 'binary', mimetype: 'application/octet-stream' };
}

export interface NewFile {
  name: string;
  user: string;
  title?: string;
  bytes?: Buffer;
  declaredSize?: number;
  altText?: string;
  /** Uploaded in a modal's file_input rather than shared in a conversation. */
  viaForm?: boolean;
}

export function createFile(model: SlackModel, input: NewFile): SandboxFile {
  const type = fileTypeOf(input.name);
  const file: SandboxFile = {
    id: model.nextId('F'),
    name: input.name,
    title: input.title ?? input.name,
    filetype: type.filetype,
    mimetype: type.mimetype,
    size: input.bytes?.length ?? input.declaredSize ?? 0,
    bytes: input.bytes,
    user: input.user,
    created: Math.floor(model.clock() / 1000),
    altText: input.altText,
    shares: [],
    uploadSecret: randomBytes(12).toString('hex'),
    completed: input.bytes !== undefined,
    viaForm: input.viaForm ?? false,
  };
  model.files.set(file.id, file);
  model.changed();
  return file;
}

/**
 * The bytes of an upload. @slack/web-api 8 posts the file as multipart/form-data with one part (named "body", a Blob
 * with a file name); curl-style clients post the raw bytes. Both are accepted, as Slack's upload endpoint does.
 */
export async function uploadedBytes(contentType: string | undefined, body: Buffer): Promise<Buffer> {
  if (contentType?.startsWith('multipart/form-data')) {
    const form = await new Request('http://sandbox.invalid/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    }).formData();
    for (const [, value] of form.entries()) {
      if (typeof value !== 'string') return Buffer.from(await value.arrayBuffer());
    }
    const first = [...form.values()][0];
    return Buffer.from(typeof first === 'string' ? first : '');
  }
  return body;
}
