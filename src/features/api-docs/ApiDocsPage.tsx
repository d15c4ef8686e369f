import { useTrans } from '../../i18n/use-trans';

/** Where the server serves the interactive documentation of the generated OpenAPI document. */
export const API_DOCS_URL = '/api/v1/docs';

/**
 * The API documentation (spec §2 route api-docs): the server's Swagger UI,
 * framed inside the app. The route guard has already checked api.access; the
 * server checks it again for the frame.
 */
export function ApiDocsPage() {
  const { t } = useTrans();
  return (
    <section className="flex h-[calc(100dvh-4rem)] flex-col">
      <iframe title={t('API documentation')} src={API_DOCS_URL} className="min-h-0 w-full flex-1 border-0 bg-white" />
    </section>
  );
}
