import type { MirrorInfo } from './mirror-names.js';
import { Instant } from './instant.js';

/** Where the mirror stands, in a sentence; the page asks again every few seconds until it is live. */
export function MirrorState({ mirror }: { mirror: MirrorInfo | undefined }) {
  if (!mirror) return null;
  return (
    <p class="hint" role="status" data-testid="mirror-state">
      {mirror.status === 'LIVE' && (
        <>
          Mirror live: every change since <Instant value={mirror.continuousSince} /> is in; history goes back to{' '}
          <Instant value={mirror.seededAt} />.
        </>
      )}
      {mirror.status === 'SEEDING' && <>The mirror is reading the whole base (seeding); this page fills in once it is done.</>}
      {mirror.status === 'GAP' && (
        <>Changes may have been missed (the upstream watch was re-created): the mirror reads the base again by itself.</>
      )}
    </p>
  );
}
