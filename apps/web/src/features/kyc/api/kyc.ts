import * as endpoints from '@numa/contract/endpoints';
import { callMultipart } from '../../../lib/api';

/** Sends the identity documents (new files, and the URLs of the ones kept) for review. */
export const submitIdentityDocuments = (form: FormData) =>
  callMultipart(endpoints.updateKYCInfo, form, { silent: true });
