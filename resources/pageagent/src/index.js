// The Pilothouse page agent. Installed once per document in an isolated world as
// `window.__pilothouse`; the C++ side calls its functions with runJavaScript and gets
// JSON strings back.
import { agentApi } from './api.js';

if (!window.__pilothouse) {
  Object.defineProperty(window, '__pilothouse', { value: agentApi, enumerable: false });
}
