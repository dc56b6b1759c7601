import { describeMirrorEndToEnd } from './mirror-flow.js';

describeMirrorEndToEnd('mirror end to end', async () => ({ env: {}, drop: async () => undefined }));
