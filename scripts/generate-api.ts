import fs from 'node:fs/promises';
import { generateApiFiles, OPENAPI_FILE, TYPES_FILE } from './api-types.js';

const { openapi, types } = await generateApiFiles();
await fs.writeFile(OPENAPI_FILE, openapi);
await fs.writeFile(TYPES_FILE, types);
console.log(`wrote ${OPENAPI_FILE} and ${TYPES_FILE}`);
