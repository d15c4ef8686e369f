// Shared by playwright.config.ts (which starts the server) and the specs.
export const E2E_PORT = 8091;
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;
export const E2E_ADMIN = { email: 'admin@e2e.test', password: 'e2e-admin-Password1' };
