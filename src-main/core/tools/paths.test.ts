import { describe, expect, it } from 'vitest';
import { grantHolding, isInsideFolder, NO_GRANTS_MESSAGE, normaliseGrants, quotePath, resolveInsideGrants } from './paths';

const GRANTS = ['/data/notes', '/data/work/'];
const GRANTED = 'Granted folders: /data/notes, /data/work.';

function refusal(shown: string, why: string): { ok: false; reason: string } {
  return { ok: false, reason: `Refused ${shown}: ${why} ${GRANTED}` };
}

const DOTS = '".." segments are not allowed.';
const OUTSIDE = 'it is outside every granted folder.';

describe('resolveInsideGrants on POSIX', () => {
  it.each([
    ['todo.md', '/data/notes/todo.md'],
    ['.', '/data/notes'],
    ['./', '/data/notes'],
    ['./a/./b/', '/data/notes/a/b'],
    ['a//b', '/data/notes/a/b'],
    ['...', '/data/notes/...'],
    ['..hidden/x', '/data/notes/..hidden/x'],
    ['a..b', '/data/notes/a..b'],
    ['notes~', '/data/notes/notes~'],
    ['a/~/b', '/data/notes/a/~/b'],
    ['100%', '/data/notes/100%'],
    ['50%off', '/data/notes/50%off'],
    ['한글 노트.md', '/data/notes/한글 노트.md'],
    ['/data/notes', '/data/notes'],
    ['/data/notes/', '/data/notes'],
    ['/data/notes/./x', '/data/notes/x'],
    ['//data//notes//x', '/data/notes/x'],
    ['/data/work/report.txt', '/data/work/report.txt'],
    ['/data/work', '/data/work'],
  ])('resolves %j to %j', (requested, resolved) => {
    expect(resolveInsideGrants(requested, GRANTS, 'posix')).toEqual({ ok: true, path: resolved });
  });

  it.each([
    ['', '""', 'the path is empty; use "." for the first granted folder.'],
    ['..', '".."', DOTS],
    ['../', '"../"', DOTS],
    ['../etc/passwd', '"../etc/passwd"', DOTS],
    ['a/../../etc', '"a/../../etc"', DOTS],
    ['a/../b', '"a/../b"', DOTS],
    ['a/..', '"a/.."', DOTS],
    ['/data/notes/../notes-private/x', '"/data/notes/../notes-private/x"', DOTS],
    ['/data/notes/..', '"/data/notes/.."', DOTS],
    ['..\\..\\etc\\passwd', '"..\\..\\etc\\passwd"', DOTS],
    ['/etc/passwd', '"/etc/passwd"', OUTSIDE],
    ['/', '"/"', OUTSIDE],
    ['/data', '"/data"', OUTSIDE],
    ['/data/', '"/data/"', OUTSIDE],
    ['/data/notes-private', '"/data/notes-private"', OUTSIDE],
    ['/data/notes-private/x', '"/data/notes-private/x"', OUTSIDE],
    ['/data/notesx', '"/data/notesx"', OUTSIDE],
    ['/data/note', '"/data/note"', OUTSIDE],
    ['/DATA/NOTES/x', '"/DATA/NOTES/x"', OUTSIDE],
    ['/data/work-old/x', '"/data/work-old/x"', OUTSIDE],
    ['%2e%2e/etc', '"%2e%2e/etc"', 'it contains percent-encoding ("%2e"). Paths are never decoded: write the characters themselves.'],
    ['%2E%2E%2Fetc', '"%2E%2E%2Fetc"', 'it contains percent-encoding ("%2E"). Paths are never decoded: write the characters themselves.'],
    ['..%2f..%2fetc', '"..%2f..%2fetc"', 'it contains percent-encoding ("%2f"). Paths are never decoded: write the characters themselves.'],
    ['a%5cb', '"a%5cb"', 'it contains percent-encoding ("%5c"). Paths are never decoded: write the characters themselves.'],
    ['%252e%252e', '"%252e%252e"', 'it contains percent-encoding ("%25"). Paths are never decoded: write the characters themselves.'],
    ['/data/notes/%00', '"/data/notes/%00"', 'it contains percent-encoding ("%00"). Paths are never decoded: write the characters themselves.'],
    ['a\u0000b', '"a\\u0000b"', 'it contains a NUL byte.'],
    ['/data/notes/x\u0000/../../etc', '"/data/notes/x\\u0000/../../etc"', 'it contains a NUL byte.'],
    ['~', '"~"', '"~" is not expanded to a home folder. Give a path inside a granted folder.'],
    ['~/secrets', '"~/secrets"', '"~" is not expanded to a home folder. Give a path inside a granted folder.'],
    ['~root/.ssh', '"~root/.ssh"', '"~" is not expanded to a home folder. Give a path inside a granted folder.'],
    ['C:\\', '"C:\\"', 'it is a Windows drive path, which does not exist on this system.'],
    ['C:\\Windows\\win.ini', '"C:\\Windows\\win.ini"', 'it is a Windows drive path, which does not exist on this system.'],
    ['c:/x', '"c:/x"', 'it is a Windows drive path, which does not exist on this system.'],
    ['D:', '"D:"', 'it is a Windows drive path, which does not exist on this system.'],
    ['\\\\server\\share', '"\\\\server\\share"', 'it is a Windows network (UNC) path, which does not exist on this system.'],
    ['\\\\?\\C:\\x', '"\\\\?\\C:\\x"', 'it is a Windows network (UNC) path, which does not exist on this system.'],
    ['a\\b', '"a\\b"', 'it contains a backslash, which is not a folder separator here; use "/".'],
    ['\\etc\\passwd', '"\\etc\\passwd"', 'it contains a backslash, which is not a folder separator here; use "/".'],
  ])('refuses %j', (requested, shown, why) => {
    expect(resolveInsideGrants(requested, GRANTS, 'posix')).toEqual(refusal(shown, why));
  });

  it('refuses everything when no folder is granted, telling the user to grant one in Settings', () => {
    const expected = { ok: false, reason: NO_GRANTS_MESSAGE };
    for (const requested of ['todo.md', '.', '/data/notes/x', '../x', '']) {
      expect(resolveInsideGrants(requested, [], 'posix')).toEqual(expected);
    }
    // A grant that is not an absolute path counts as none.
    expect(resolveInsideGrants('todo.md', ['notes', '', 'a\u0000b'], 'posix')).toEqual(expected);
    expect(NO_GRANTS_MESSAGE).toMatch(/^No folders are granted.*Settings/);
  });

  it('resolves relative paths against the first usable grant', () => {
    expect(resolveInsideGrants('x', ['relative', '/data/work', '/data/notes'], 'posix')).toEqual({ ok: true, path: '/data/work/x' });
  });

  it('grants the whole tree under the root folder, still refusing ".."', () => {
    expect(resolveInsideGrants('/etc/hosts', ['/'], 'posix')).toEqual({ ok: true, path: '/etc/hosts' });
    expect(resolveInsideGrants('etc', ['/'], 'posix')).toEqual({ ok: true, path: '/etc' });
    expect(resolveInsideGrants('../etc', ['/'], 'posix')).toEqual({ ok: false, reason: `Refused "../etc": ${DOTS} Granted folders: /.` });
  });

  it('shortens a very long path in the message', () => {
    const long = `/elsewhere/${'x'.repeat(300)}`;
    const result = resolveInsideGrants(long, GRANTS, 'posix');
    expect(result).toEqual(refusal(`"${long.slice(0, 200)}…"`, OUTSIDE));
  });
});

describe('resolveInsideGrants on Windows', () => {
  const WINDOWS_GRANTS = ['C:\\Users\\me\\Notes\\', '\\\\nas\\share\\docs'];
  const WINDOWS_GRANTED = 'Granted folders: C:\\Users\\me\\Notes, \\\\nas\\share\\docs.';

  it.each([
    ['todo.md', 'C:\\Users\\me\\Notes\\todo.md'],
    ['sub/x.txt', 'C:\\Users\\me\\Notes\\sub\\x.txt'],
    ['.', 'C:\\Users\\me\\Notes'],
    ['C:\\Users\\me\\Notes', 'C:\\Users\\me\\Notes'],
    ['c:\\users\\ME\\notes\\x', 'c:\\users\\ME\\notes\\x'],
    ['C:/Users/me/Notes/a/b', 'C:\\Users\\me\\Notes\\a\\b'],
    ['\\\\nas\\share\\docs\\a.txt', '\\\\nas\\share\\docs\\a.txt'],
    ['//NAS/share/docs/a.txt', '\\\\NAS\\share\\docs\\a.txt'],
  ])('resolves %j to %j', (requested, resolved) => {
    expect(resolveInsideGrants(requested, WINDOWS_GRANTS, 'win32')).toEqual({ ok: true, path: resolved });
  });

  it.each([
    ['C:\\Users\\me\\Notes-private\\x', OUTSIDE],
    ['C:\\Users\\me', OUTSIDE],
    ['D:\\Users\\me\\Notes\\x', OUTSIDE],
    ['\\\\nas\\share\\other', OUTSIDE],
    ['\\\\evil\\share\\docs\\a', OUTSIDE],
    ['..\\x', DOTS],
    ['a\\..\\..\\x', DOTS],
    ['.. \\x', DOTS],
    ['...\\x', DOTS],
    ['C:\\Users\\me\\Notes\\..\\Notes-private', DOTS],
    ['\\\\?\\C:\\x', 'it is a Windows device path.'],
    ['\\\\.\\pipe\\x', 'it is a Windows device path.'],
    ['//./COM1', 'it is a Windows device path.'],
    ['C:x', 'it is relative to the current folder of drive C:; give a full path.'],
    ['\\Windows\\win.ini', 'it has no drive letter; give a full path such as "C:\\Users\\…".'],
    ['x.txt:secret', 'it contains ":" outside a drive letter.'],
    ['C:\\Users\\me\\Notes\\x.txt::$DATA', 'it contains ":" outside a drive letter.'],
    ['CON', '"CON" is a reserved device name on Windows.'],
    ['sub\\nul.txt', '"nul.txt" is a reserved device name on Windows.'],
    ['~\\x', '"~" is not expanded to a home folder. Give a path inside a granted folder.'],
    ['%2e%2e\\x', 'it contains percent-encoding ("%2e"). Paths are never decoded: write the characters themselves.'],
  ])('refuses %j', (requested, why) => {
    expect(resolveInsideGrants(requested, WINDOWS_GRANTS, 'win32')).toEqual({
      ok: false,
      reason: `Refused ${quotePath(requested)}: ${why} ${WINDOWS_GRANTED}`,
    });
  });

  it('drops grants without a drive or server', () => {
    expect(normaliseGrants(['\\Users\\me', 'notes', 'D:\\ok\\'], 'win32')).toEqual(['D:\\ok']);
  });
});

describe('isInsideFolder', () => {
  it.each([
    ['/data/notes', '/data/notes', true],
    ['/data/notes', '/data/notes/a/b', true],
    ['/data/notes', '/data/notes-private', false],
    ['/data/notes', '/data/notes-private/a', false],
    ['/data/notes', '/data', false],
    ['/data/notes', '/', false],
    ['/', '/anything', true],
    ['/data/notes', '/data/Notes/a', false],
  ] as const)('(%j, %j) is %j on POSIX', (folder, candidate, inside) => {
    expect(isInsideFolder(folder, candidate, 'posix')).toBe(inside);
  });

  it('compares Windows paths without regard to case or separator', () => {
    expect(isInsideFolder('C:\\Data', 'c:/data/x', 'win32')).toBe(true);
    expect(isInsideFolder('C:\\Data', 'D:\\Data\\x', 'win32')).toBe(false);
    expect(isInsideFolder('C:\\Data', 'C:\\Data2', 'win32')).toBe(false);
  });

  it('finds the grant holding a path', () => {
    expect(grantHolding('/data/work/x', ['/data/notes', '/data/work'], 'posix')).toBe('/data/work');
    expect(grantHolding('/data/workshop', ['/data/notes', '/data/work'], 'posix')).toBeNull();
  });
});
