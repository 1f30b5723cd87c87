import { useEffect, useState } from 'react';

/**
 * A QR code of `text` as a PNG data URL, drawn by the `qrcode` package loaded on first use
 * (it stays out of the login page's bundle). Null while drawing or without text.
 */
export function useQrDataUrl(text: string | null, width = 512): { url: string | null; failed: boolean } {
  const [state, setState] = useState<{ text: string | null; url: string | null; failed: boolean }>({
    text: null,
    url: null,
    failed: false,
  });
  useEffect(() => {
    if (!text) return;
    let live = true;
    import('qrcode')
      .then((QRCode) => QRCode.toDataURL(text, { width, margin: 1, errorCorrectionLevel: 'M' }))
      .then(
        (url) => live && setState({ text, url, failed: false }),
        () => live && setState({ text, url: null, failed: true }),
      );
    return () => {
      live = false;
    };
  }, [text, width]);
  // A stale code (of the previous text) is never shown.
  return state.text === text ? { url: state.url, failed: state.failed } : { url: null, failed: false };
}
