import type { AbuseTables } from './abuse';
import type { AccountAreaTables } from './account';
import type { AccountsTables } from './accounts';
import type { CarrierTables } from './carrier';
import type { CatalogueTables } from './catalogue';
import type { CellPlansTables } from './cellPlans';
import type { ChatsTables } from './chats';
import type { CodesTables } from './codes';
import type { CodeSuppliersTables } from './codeSuppliers';
import type { DeveloperTables } from './developer';
import type { JobsTables } from './jobs';
import type { MediaTables } from './media';
import type { PaymentsTables } from './payments';
import type { NumbersTables } from './numbers';
import type { PricingTables } from './pricing';
import type { RentalsTables } from './rentals';
import type { ScheduledTables } from './scheduled';

import type { PushTables } from './push';
import type { SecurityTables } from './security';
import type { SigninTables } from './signin';
import type { SttTables } from './stt';
import type { TemplatesTables } from './templates';

/**
 * Every table the migrations make, as Kysely sees it: one interface per area (`./<area>.ts`), joined
 * here. A new area adds its file and one name to this list; test/schema.test.ts checks the whole of
 * it against the migrated database (tables, columns, nullability, defaults), so the two cannot drift.
 */
export interface DB
  extends
    AbuseTables,
    AccountAreaTables,
    AccountsTables,
    CarrierTables,
    CatalogueTables,
    CellPlansTables,
    ChatsTables,
    CodesTables,
    CodeSuppliersTables,
    DeveloperTables,
    JobsTables,
    MediaTables,
    PaymentsTables,
    NumbersTables,
    PricingTables,
    PushTables,
    RentalsTables,
    ScheduledTables,
    SecurityTables,
    SigninTables,
    SttTables,
    TemplatesTables {}
