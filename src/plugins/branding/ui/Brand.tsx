import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { useKernel } from '../../../kernel';
import { logoObjectUrl } from '../logo';
import { brandingState } from '../state';

/** The `brand` slot: the organisation's logo in the top bar, when it has one. */
export function Brand() {
  const { t } = useTranslation('branding');
  const kernel = useKernel();
  const { logoUrl } = useSnapshot(brandingState);
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    if (!logoUrl) return setSrc(null);
    let url: string | null = null;
    let live = true;
    void logoObjectUrl(kernel, logoUrl).then((u) => {
      url = u;
      if (live) setSrc(u);
      else if (u) URL.revokeObjectURL(u);
    });
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [kernel, logoUrl]);
  if (!src) return null;
  return <img className="brand-logo" src={src} alt={t('logoAlt')} />;
}
