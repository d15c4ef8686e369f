import { linkDownloadUrl, useRefreshLink } from '../api/visitor';

/** Starts a download the browser handles itself, then asks the link again (a limit may now be used up). */
export function useLinkDownload(token: string) {
  const refresh = useRefreshLink(token);
  return (hashes: string[]) => {
    const anchor = document.createElement('a');
    anchor.href = linkDownloadUrl(token, hashes);
    anchor.download = '';
    anchor.rel = 'noopener';
    document.body.append(anchor);
    anchor.click();
    anchor.remove();
    window.setTimeout(() => void refresh(), 1500);
  };
}
