/**
 * SPEC §9's UI timings, set once: the web app's theme and ConfigProvider read them, and the
 * few components antd cannot configure globally (menus, debounced searches) take them here.
 */
export const UI_TIMING = {
  /** Autocomplete and remote select search debounce. */
  debounceMs: 300,
  /** Dropdown show and hide delays. */
  dropdownShowMs: 250,
  dropdownHideMs: 150,
  /** Submenu open/close delay. */
  submenuMs: 300,
  /** Default dialog top offset. */
  dialogTop: '15vh',
  /** Tooltip open delay and popper debounce. */
  tooltipDelayMs: 0,
  popperDebounceMs: 200,
  /** Modal base z-index and animation length. */
  modalZIndex: 2000,
  animationMs: 200,
  /** Infinite-scroll throttle. */
  scrollThrottleMs: 200,
} as const;
