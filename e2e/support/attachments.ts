/**
 * What the specs that attach files share: real, decodable images made on the spot (no binary fixtures), a paste of a
 * file into the composer as a copied image arrives, and whether an image on the page has really loaded.
 */
import type { Locator, Page } from '@playwright/test';
import { pngFile } from '../../src-main/core/attachments/test-files';

/** An RGB PNG, `width` x `height`, shading from teal to violet. */
export function gradientPng(width: number, height: number): Buffer {
  return pngFile(width, height, (x, y) => {
    const shade = (x / Math.max(1, width - 1) + y / Math.max(1, height - 1)) / 2;
    return [Math.round(20 + 120 * shade), Math.round(180 - 120 * shade), Math.round(170 + 70 * shade)];
  });
}

/** A one-page PDF: enough for the host's sniffing, which reads the `%PDF-` signature and the page tree. */
export const SMALL_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n' +
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  'latin1',
);

/** Pastes `bytes` into the message field as a file, as pasting a copied image does. */
export async function pasteFile(page: Page, name: string, type: string, bytes: Buffer): Promise<void> {
  await page.getByTestId('composer-input').evaluate(
    (input, { name: fileName, type: fileType, base64 }) => {
      const data = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([data], fileName, { type: fileType }));
      input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
    },
    { name, type, base64: bytes.toString('base64') },
  );
}

/** The image's decoded width: a blocked or broken source leaves it 0. */
export async function naturalWidth(image: Locator): Promise<number> {
  return image.evaluate((element) => (element as HTMLImageElement).naturalWidth);
}
