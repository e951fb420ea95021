// email-reply-parser ships no types; the part the mail reader uses.
declare module 'email-reply-parser' {
  export default class EmailReplyParser {
    /** The text above the quoted message and the signature. */
    parseReply(text: string): string;
  }
}
