/** Browser effects of saving a file, replaceable in tests. */
export const downloader = {
  createUrl: (blob: Blob) => URL.createObjectURL(blob),
  revokeUrl: (url: string) => URL.revokeObjectURL(url),
};

/** Saves a downloaded body under `filename` through a temporary `<a download>`. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = downloader.createUrl(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked on the next task: some browsers read the URL after click() returns.
  setTimeout(() => downloader.revokeUrl(url), 0);
}
