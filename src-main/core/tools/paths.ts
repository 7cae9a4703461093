/**
 * Where the file tools may look: only inside folders the user granted in Settings. This module decides, from the
 * text of a path alone, whether a requested path stays inside a granted folder. It touches no file system: symlinks
 * are checked separately, against real paths, before any file is opened (see files.ts).
 *
 * The rules are strict on purpose. A model's tool call may carry text from a web page or a document, so anything that
 * could climb out of a granted folder is refused rather than interpreted: ".." segments (even ones that would land
 * back inside), percent-encoding (never decoded), "~", NUL bytes, and path forms of another operating system.
 */
import path from 'node:path';

export type PathPlatform = 'posix' | 'win32';

export type GrantResolution = { readonly ok: true; readonly path: string } | { readonly ok: false; readonly reason: string };

export const NO_GRANTS_MESSAGE =
  'No folders are granted, so no file can be read or listed. The user can grant a folder in Settings; ask them to, ' +
  'then try again.';

const CURRENT_PLATFORM: PathPlatform = process.platform === 'win32' ? 'win32' : 'posix';

// Paths are never percent-decoded, so "%2e%2e%2f" cannot become "../"; refusing them outright also keeps a model from
// believing it reached a file it did not.
const PERCENT_ESCAPE = /%[0-9a-f]{2}/i;
const WINDOWS_DRIVE = /^[a-z]:/i;
const WINDOWS_DEVICE_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

function pathApiOf(platform: PathPlatform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** A path as shown in a message: quoted, control characters escaped, long ones shortened. */
export function quotePath(text: string): string {
  // eslint-disable-next-line no-control-regex
  const visible = text.replace(/[\u0000-\u001f\u007f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `"${visible.length > 200 ? `${visible.slice(0, 200)}…` : visible}"`;
}

/** The part of a message that names the granted folders. */
export function describeGrants(grants: readonly string[]): string {
  return `Granted folders: ${grants.join(', ')}.`;
}

/**
 * Grants as absolute, normalised paths without a trailing separator. A grant that is not absolute (or, on Windows,
 * has no drive or server) is dropped: it would depend on the app's working folder.
 */
export function normaliseGrants(grants: readonly string[], platform: PathPlatform = CURRENT_PLATFORM): string[] {
  const api = pathApiOf(platform);
  const result: string[] = [];
  for (const grant of grants) {
    if (grant.includes('\0') || !api.isAbsolute(grant)) continue;
    if (platform === 'win32' && !WINDOWS_DRIVE.test(grant) && !/^[\\/]{2}[^\\/?.]/.test(grant)) continue;
    const normal = stripTrailingSeparator(api.normalize(grant), platform);
    if (!result.includes(normal)) result.push(normal);
  }
  return result;
}

function stripTrailingSeparator(normal: string, platform: PathPlatform): string {
  const api = pathApiOf(platform);
  const root = api.parse(normal).root;
  let trimmed = normal;
  while (trimmed.length > root.length && /[\\/]$/.test(trimmed)) trimmed = trimmed.slice(0, -1);
  return trimmed;
}

function segmentsOf(absolute: string, platform: PathPlatform): { root: string; segments: string[] } {
  const api = pathApiOf(platform);
  const root = api.parse(absolute).root;
  const segments = absolute
    .slice(root.length)
    .split(platform === 'win32' ? /[\\/]/ : '/')
    .filter((segment) => segment !== '' && segment !== '.');
  const fold = (text: string) => (platform === 'win32' ? text.toLowerCase() : text);
  return { root: fold(root.replace(/\//g, '\\')), segments: segments.map(fold) };
}

/**
 * Whether `candidate` is `folder` or lies inside it, compared segment by segment: "/data/notes-private" is not inside
 * "/data/notes". Both must be absolute and normalised. Windows compares without regard to case.
 */
export function isInsideFolder(folder: string, candidate: string, platform: PathPlatform = CURRENT_PLATFORM): boolean {
  const outer = segmentsOf(folder, platform);
  const inner = segmentsOf(candidate, platform);
  if (outer.root !== inner.root || inner.segments.length < outer.segments.length) return false;
  return outer.segments.every((segment, index) => inner.segments[index] === segment);
}

/** The first granted folder that holds `candidate`, or null. */
export function grantHolding(candidate: string, grants: readonly string[], platform: PathPlatform = CURRENT_PLATFORM): string | null {
  return grants.find((grant) => isInsideFolder(grant, candidate, platform)) ?? null;
}

/** Why the text of `requested` is refused before it is resolved at all, or null when it may be resolved. */
function refusalOf(requested: string, platform: PathPlatform): string | null {
  if (requested === '') return 'the path is empty; use "." for the first granted folder.';
  if (requested.includes('\0')) return 'it contains a NUL byte.';
  const escape = PERCENT_ESCAPE.exec(requested);
  if (escape) {
    return `it contains percent-encoding ("${escape[0]}"). Paths are never decoded: write the characters themselves.`;
  }
  if (requested.startsWith('~')) return '"~" is not expanded to a home folder. Give a path inside a granted folder.';
  if (platform === 'posix') {
    if (WINDOWS_DRIVE.test(requested)) return 'it is a Windows drive path, which does not exist on this system.';
    if (requested.startsWith('\\\\')) return 'it is a Windows network (UNC) path, which does not exist on this system.';
  } else if (/^[\\/]{2}[?.](?:[\\/]|$)/.test(requested)) {
    return 'it is a Windows device path.';
  }
  const segments = requested.split(/[\\/]/);
  // Windows trims trailing dots and spaces from a name, so ".. " or "..." would climb like "..".
  const climbs = (segment: string) => segment === '..' || (platform === 'win32' && segment !== '.' && /^[. ]+$/.test(segment));
  if (segments.some(climbs)) return '".." segments are not allowed.';
  if (platform === 'posix') {
    if (requested.includes('\\')) return 'it contains a backslash, which is not a folder separator here; use "/".';
    return null;
  }
  const afterDrive = WINDOWS_DRIVE.test(requested) ? requested.slice(2) : requested;
  if (afterDrive.includes(':')) return 'it contains ":" outside a drive letter.';
  const reserved = segments.find((segment) => WINDOWS_DEVICE_NAME.test(segment.trimEnd()));
  if (reserved !== undefined) return `"${reserved}" is a reserved device name on Windows.`;
  if (WINDOWS_DRIVE.test(requested) && !/^[a-z]:[\\/]/i.test(requested)) {
    return `it is relative to the current folder of drive ${requested.slice(0, 2)}; give a full path.`;
  }
  if (/^[\\/](?![\\/])/.test(requested)) return 'it has no drive letter; give a full path such as "C:\\Users\\…".';
  return null;
}

/**
 * Resolves `requested` inside the granted folders, by its text alone: a relative path against the first granted
 * folder, an absolute path only when it lies inside one of them. Every other path is refused with a reason that
 * names the granted folders.
 */
export function resolveInsideGrants(
  requested: string,
  grants: readonly string[],
  platform: PathPlatform = CURRENT_PLATFORM,
): GrantResolution {
  const granted = normaliseGrants(grants, platform);
  const firstGrant = granted[0];
  if (firstGrant === undefined) return { ok: false, reason: NO_GRANTS_MESSAGE };
  const refuse = (why: string): GrantResolution => ({
    ok: false,
    reason: `Refused ${quotePath(requested)}: ${why} ${describeGrants(granted)}`,
  });

  const refusal = refusalOf(requested, platform);
  if (refusal !== null) return refuse(refusal);

  const api = pathApiOf(platform);
  if (!api.isAbsolute(requested)) {
    return { ok: true, path: stripTrailingSeparator(api.join(firstGrant, requested), platform) };
  }
  const absolute = stripTrailingSeparator(api.normalize(requested), platform);
  if (grantHolding(absolute, granted, platform) === null) return refuse('it is outside every granted folder.');
  return { ok: true, path: absolute };
}
