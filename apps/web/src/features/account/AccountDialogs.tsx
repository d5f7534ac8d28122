import { useEffect } from 'react';
import { onRetcode } from '../../lib/api';
import { useSession } from '../../stores/session';
import { useAccountInfo } from './api';
import { ProfileDialogs } from '../billing/ProfileDialogs';
import { InviteDialogs } from '../invite/InviteDialogs';
import { IdentityDialogHost } from '../kyc/IdentityDialog';
import { openVerify } from '../verify/store';
import { VerifyModal } from '../verify/VerifyModal';

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
  return (
    <>
      <VerifyModal />
      <ProfileDialogs />
      <IdentityDialogHost />
      <InviteDialogs />
    </>
  );
}
