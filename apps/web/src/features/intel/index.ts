/**
 * The intel feature's public contract: the credit report call, which the results page's 'Credit Report
 * Request' modal makes exactly as the corporate form does. Other features import only this file.
 */
export { type IntelPdfAnswer, type IntelSearchInput, requestIntelPdf } from './api/intelSearch.ts';
