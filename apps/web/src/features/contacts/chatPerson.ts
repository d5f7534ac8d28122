/** A person as the chats area chooses one (spec 000 §3 Chosen person). */
export interface ChatPerson {
  name: string;
  /** Full number: country code and national number, digits. */
  phone: string;
  telCode: string;
  shortPhone: string;
}
