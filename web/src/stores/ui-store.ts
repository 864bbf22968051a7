import { create } from 'zustand';

/**
 * App-wide UI state. The pattern for feature stores: one `create` per slice, state and actions
 * together, read with selectors (`useUiStore((s) => s.mobileMenuOpen)`). Feature slices live in
 * web/src/features/<feature>/, not here.
 */
interface UiState {
  mobileMenuOpen: boolean;
  setMobileMenuOpen: (open: boolean) => void;
  toggleMobileMenu: () => void;
}

export const useUiStore = create<UiState>()((set) => ({
  mobileMenuOpen: false,
  setMobileMenuOpen: (open) => set({ mobileMenuOpen: open }),
  toggleMobileMenu: () => set((s) => ({ mobileMenuOpen: !s.mobileMenuOpen })),
}));
