import { API_PREFIX, moduleRoutes } from '../../lib/routes.js';
import { documentRoutes } from './routes.js';
import { DocumentsService, type DocumentsDeps } from './service.js';

/** The document editor: .docx read into the editor's model and saved back. */
export function createDocuments(deps: DocumentsDeps) {
  const documents = new DocumentsService(deps);
  return { documents, routes: moduleRoutes(API_PREFIX, documentRoutes, { documents }) };
}
