import { Suspense, useEffect, type ReactNode } from 'react';
import { lazyNamed } from '../../components/lazy';
import { onRetcode } from '../../lib/api';
import { useSession } from '../../stores/session';
import { useAccountInfo } from './api';
import { useProfileFlow } from '../billing/store';
import { useInviteDialogs } from '../invite/store';
import { useIdentityDialog } from '../kyc/store';
import { openVerify, useVerifyModal } from '../verify/store';

// Each dialog (with its forms, captcha, country list and phone rules) is a chunk fetched the first time
// its store opens it; the shell only reads the stores (docs/architecture.md, "Code splitting").
const VerifyModal = lazyNamed(() => import('../verify/VerifyModal'), 'VerifyModal');
const ProfileDialogs = lazyNamed(() => import('../billing/ProfileDialogs'), 'ProfileDialogs');
const IdentityDialogHost = lazyNamed(() => import('../kyc/IdentityDialog'), 'IdentityDialogHost');
const InviteDialogs = lazyNamed(() => import('../invite/InviteDialogs'), 'InviteDialogs');

const WhenOpen = ({ open, children }: { open: boolean; children: ReactNode }) =>
  open ? <Suspense fallback={null}>{children}</Suspense> : null;

/**
 * The account area's global dialogs for a signed-in user (spec 000 §2 "Also global"): verify phone
 * or e-mail, profile update / ask-to-update / status, proof of identity and the unlock-bonus prompt.
 * Any area opens them through their stores. 100025 from any call opens the verify modal in update
 * mode (spec 000 §8).
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
