import { Suspense, useEffect, type ReactNode } from 'react';
import { lazyNamed } from '../components/lazy';
import { onRetcode } from '../lib/api';
import { useSession } from '../stores/session';
import { useAccountInfo } from '../shared/api/account';
import { useProfileFlow } from '../shared/dialogs/billingProfile';
import { useInviteDialogs } from '../shared/dialogs/invite';
import { useIdentityDialog } from '../shared/dialogs/identity';
import { openVerify, useVerifyModal } from '../shared/dialogs/verify';

// Each dialog (with its forms, captcha, country list and phone rules) is a chunk fetched the first time
// its store opens it; the shell only reads the stores (docs/architecture.md, "Code splitting").
const VerifyModal = lazyNamed(() => import('../features/verify/VerifyModal'), 'VerifyModal');
const ProfileDialogs = lazyNamed(() => import('../features/billingProfile/ProfileDialogs'), 'ProfileDialogs');
const IdentityDialogHost = lazyNamed(() => import('../features/kyc/IdentityDialog'), 'IdentityDialogHost');
const InviteDialogs = lazyNamed(() => import('../features/invite/InviteDialogs'), 'InviteDialogs');

const WhenOpen = ({ open, children }: { open: boolean; children: ReactNode }) =>
  open ? <Suspense fallback={null}>{children}</Suspense> : null;

/**
 * The host of the account's global dialogs for a signed-in user (spec 000 §2 "Also global"): verify
 * phone or e-mail, profile update / ask-to-update / status, proof of identity and the unlock-bonus
 * prompt. Each belongs to its area; any area opens them through their stores (shared/dialogs/).
 * 100025 from any call opens the verify modal in update mode (spec 000 §8).
 */
export function AccountDialogs() {
  useEffect(() => onRetcode(100025, () => openVerify('update')), []);
  // the invite flags follow the server whenever the account is read (a session restored from storage
  // may not have them, and they change after a redemption)
  const info = useAccountInfo();
  const setFlags = useSession((s) => s.setFlags);
  useEffect(() => {
    if (info.data) setFlags({ canInvite: info.data.canInvite, canSetInviter: info.data.canSetInviter });
  }, [info.data, setFlags]);
  const verifyOpen = useVerifyModal((s) => !!s.mode);
  const profileOpen = useProfileFlow((s) => !!s.dialog);
  const identityOpen = useIdentityDialog((s) => s.isOpen);
  const inviteOpen = useInviteDialogs((s) => s.unlockOpen || s.bonus !== null);
  return (
    <>
      <WhenOpen open={verifyOpen}>
        <VerifyModal />
      </WhenOpen>
      <WhenOpen open={profileOpen}>
        <ProfileDialogs />
      </WhenOpen>
      <WhenOpen open={identityOpen}>
        <IdentityDialogHost />
      </WhenOpen>
      <WhenOpen open={inviteOpen}>
        <InviteDialogs />
      </WhenOpen>
    </>
  );
}
