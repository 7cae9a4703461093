/**
 * Hands a file to the person. A link with `download` saves in a browser. The Electron shell sets no save path on
 * `will-download`, and then "Electron will use the original routine to determine the save path; this usually prompts
 * a save dialog" (https://www.electronjs.org/docs/latest/api/download-item#downloaditemsetsavepathpath).
 */
export function downloadFile(filename: string, mimeType: string, parts: readonly BlobPart[]): void {
  const url = URL.createObjectURL(new Blob([...parts], { type: mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
