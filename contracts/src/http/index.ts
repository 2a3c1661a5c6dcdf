export * from './errors.dto.js';
export * from './auth.dto.js';
export * from './assistants.dto.js';
export * from './files.dto.js';
export * from './threads.dto.js';
export * from './limits.dto.js';
export * from './safe-text.js';
export * from './crawler.dto.js';
