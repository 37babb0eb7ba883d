/**
 * The server files API's shapes (docs/files.md). Paths are relative to the server's directory; a leading `/` is that
 * directory (`/server.properties`). NUL, `..` and names over 255 bytes are refused here (400) before the agent is
 * asked; new names (write, mkdir, rename and copy targets) may not hold control characters.
 */
import { z } from 'zod';
import { checkNewName, FilePathError, normalizeFilePath } from './filePaths.ts';

const pathOf = (options: { newName?: boolean; root?: boolean }) =>
  z
    .string()
    .max(4096)
    .transform((value, ctx) => {
      try {
        const path = normalizeFilePath(value, { leadingSlash: true });
        if (path === '' && !options.root) {
          ctx.addIssue({ code: 'custom', message: "must name an entry inside the server's directory" });
          return z.NEVER;
        }
        if (options.newName) checkNewName(path);
        return path;
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: error instanceof FilePathError ? error.message : 'invalid path' });
        return z.NEVER;
      }
    });

/** A path that may be the server's directory itself (`/`, '' ). */
export const dirPath = pathOf({ root: true });
/** A path naming an existing entry. */
export const entryPath = pathOf({});
/** A path a new entry gets. */
export const newPath = pathOf({ newName: true });

export const fileEntry = z
  .object({
    name: z.string(),
    type: z.enum(['file', 'directory', 'symlink', 'other']),
    size: z.number(),
    mode: z.number().describe('Permission bits (0–0777, and setuid/setgid/sticky as found)'),
    modifiedAt: z.string(),
    linkTarget: z.string().optional().describe("A symbolic link's target as written (never followed by a listing)"),
    invalidName: z
      .boolean()
      .optional()
      .describe('The name on disk is not valid UTF-8: `name` shows each byte that is not as `\\xHH`; such an entry can be renamed and deleted by that name'),
    etag: z.string().optional().describe("A regular file's version, for If-Match"),
  })
  .meta({ id: 'FileEntry' });

export const fileListQuery = z
  .object({
    path: dirPath.default(''),
    after: z.string().max(1024).optional().describe("The previous page's `next` (a cursor)"),
    limit: z.coerce.number().int().min(1).max(10_000).default(1000),
  })
  .strict();
export const fileList = z.object({ path: z.string(), entries: z.array(fileEntry), total: z.number(), next: z.string().nullable() }).meta({ id: 'FileList' });

export const pathQuery = z.object({ path: entryPath }).strict();
export const contentQuery = z
  .object({
    path: entryPath,
    format: z.enum(['raw', 'text']).default('raw').describe('`raw`: the bytes (Range, download); `text`: JSON with the content of a text file ≤ 1 MiB'),
  })
  .strict();
export const writeQuery = z.object({ path: newPath }).strict();
export const textContent = z
  .object({ path: z.string(), content: z.string(), size: z.number(), etag: z.string(), modifiedAt: z.string() })
  .meta({ id: 'FileText' });
export const writeResult = z
  .object({ entry: fileEntry, size: z.number(), versionId: z.string().nullable().describe('The config history version kept (text files ≤ 1 MiB)') })
  .meta({ id: 'FileWriteResult' });

export const mkdirBody = z.object({ path: newPath, recursive: z.boolean().default(true) }).strict();
export const renameBody = z.object({ from: entryPath, to: newPath, overwrite: z.boolean().default(false) }).strict();
export const copyBody = z.object({ from: entryPath, to: newPath }).strict();
export const deleteQuery = z
  .object({
    path: entryPath,
    recursive: z
      .enum(['true', 'false'])
      .default('false')
      .transform((value) => value === 'true'),
  })
  .strict();
export const chmodBody = z.object({ path: entryPath, mode: z.int().min(0).max(0o777).describe('0–0777 (511)') }).strict();

export const searchQuery = z
  .object({
    path: dirPath.default(''),
    name: z.string().min(1).max(255).optional().describe('A case-insensitive substring of names, or a glob with `*` and `?`'),
    content: z.string().min(1).max(1024).optional().describe('A substring of text files’ contents'),
    maxDepth: z.coerce.number().int().min(1).max(64).default(16),
    maxFiles: z.coerce.number().int().min(1).max(1_000_000).default(50_000),
    maxResults: z.coerce.number().int().min(1).max(10_000).default(500),
  })
  .strict()
  .refine((query) => query.name !== undefined || query.content !== undefined, { message: 'give name or content', path: ['name'] });
export const searchResult = z
  .object({
    matches: z.array(z.object({ path: z.string(), type: z.string(), size: z.number(), line: z.number().optional(), text: z.string().optional() })),
    scannedFiles: z.number(),
    scannedBytes: z.number(),
    stoppedEarly: z.enum(['depth', 'files', 'bytes', 'results', 'time']).nullable().describe('Which bound stopped the search before it was complete'),
  })
  .meta({ id: 'FileSearchResult' });

export const fileVersionSchema = z
  .object({
    id: z.string(),
    path: z.string(),
    size: z.number(),
    sha256: z.string(),
    via: z.enum(['api', 'sftp', 'restore']),
    actor: z.object({ kind: z.string(), id: z.string().nullable(), name: z.string().nullable() }),
    createdAt: z.string(),
  })
  .meta({ id: 'FileVersion' });
export const fileVersionWithContent = fileVersionSchema.extend({ content: z.string() }).meta({ id: 'FileVersionContent' });
export const diffQuery = z
  .object({ against: z.string().max(64).default('current').describe('`current` (the file as it is now) or another version id') })
  .strict();
export const fileDiff = z.object({ from: z.string(), to: z.string(), diff: z.string() }).meta({ id: 'FileDiff' });
export const restoreBody = z.object({ ifMatch: z.string().max(200).optional() }).strict();

const archiveName = (value: string) => /\.(tar\.gz|tgz|zip)$/i.test(value);
export const compressBody = z
  .object({
    paths: z.array(entryPath).min(1, 'name at least one file or directory').max(1000).describe('Files and directories to compress, all in one directory'),
    archive: newPath.refine(archiveName, 'the archive name must end in .tar.gz, .tgz or .zip').describe('The archive to write (replaced if it exists)'),
  })
  .strict();
export const extractBody = z
  .object({
    path: entryPath.refine(archiveName, 'only .tar.gz, .tgz and .zip archives are extracted').describe('The archive'),
    destination: dirPath.optional().describe("The directory to extract into (made when missing); default the archive's own directory"),
  })
  .strict();
export const pullBody = z
  .object({
    url: z.string().max(2048).describe('An http(s) URL, under the same address rules as webhooks'),
    path: newPath.describe('The file to write (replaced if it exists)'),
  })
  .strict();

export const createUploadBody = z
  .object({
    path: newPath,
    size: z.int().min(0).max(Number.MAX_SAFE_INTEGER).describe('The whole file’s size in bytes'),
    ifMatch: z.string().max(200).optional().describe('The ETag the file must still have when the upload completes (`*`: it exists; `none`: it does not)'),
  })
  .strict();
export const uploadState = z
  .object({
    id: z.string(),
    path: z.string(),
    size: z.number(),
    offset: z.number().describe('Bytes received so far: the next PATCH sends from here'),
    complete: z.boolean(),
    expiresAt: z.string(),
    entry: fileEntry.nullable().describe('The written file, once complete'),
  })
  .meta({ id: 'FileUpload' });
