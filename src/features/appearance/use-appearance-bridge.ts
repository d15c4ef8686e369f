import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { queryKeys } from '../../api/query-keys';
import type { Bootstrap } from '../../api/bootstrap-types';
import { setBootstrap } from '../bootstrap/store';
import { acceptBridgeMessage, announcePreviewReady, handleBridgeMessage, markAppearanceEditorActive } from './bridge';

export function useAppearanceBridge(): void {
  const navigate = useNavigate();
  const client = useQueryClient();
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const message = acceptBridgeMessage(event, window.location.hostname);
      if (!message) return;
      markAppearanceEditorActive();
      handleBridgeMessage(message, {
        navigate: (to) => void navigate(to),
        getBootstrap: () => client.getQueryData<Bootstrap>(queryKeys.bootstrap),
        setBootstrap: (data) => setBootstrap(client, data),
      });
    };
    window.addEventListener('message', onMessage);
    announcePreviewReady();
    return () => window.removeEventListener('message', onMessage);
  }, [navigate, client]);
}
