/**
 * Hands a file to the person. A link with `download` saves in a browser; the Electron shell, which sets no download
 * path of its own, asks where with the system's Save dialog.
 */
export function downloadFile(filename: string, mimeType: string, parts: readonly BlobPart[]): void {
  const url = URL.createObjectURL(new Blob([...parts], { type: mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
