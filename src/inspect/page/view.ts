/** One tab of the page: its element, and how it fetches and redraws its data. */
export interface View {
  el: HTMLElement;
  refresh(): Promise<void>;
}
