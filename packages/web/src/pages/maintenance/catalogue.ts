import { EQUIPMENT_CATEGORIES, FAULT_SEVERITIES } from '@se/core';
import { useQuery } from '@tanstack/react-query';
import { listEquipmentTypes, listFaultTypes } from '../../api/maintenance.ts';
import { loadOrThrow } from '../../components/feedback.ts';

export const CATEGORY_OPTIONS = Object.entries(EQUIPMENT_CATEGORIES).map(([value, label]) => ({
  value,
  label,
}));
export const SEVERITY_OPTIONS = FAULT_SEVERITIES.map((label, value) => ({ value, label }));
export const SEVERITY_COLORS = ['default', 'orange', 'red'] as const;

/** Every equipment type the caller sees, for pickers (the catalogue is small). */
export function useEquipmentTypes() {
  return useQuery({
    queryKey: ['maintenance', 'equipment-types', 'all'],
    queryFn: () => loadOrThrow(() => listEquipmentTypes({ page_size: 100 })),
    staleTime: 60_000,
  });
}

/** The fault types of one equipment type, for pickers. */
export function useFaultTypes(equipmentTypeId: number | undefined) {
  return useQuery({
    queryKey: ['maintenance', 'fault-types', equipmentTypeId],
    queryFn: () => loadOrThrow(() => listFaultTypes({ page_size: 100, equipment_type_id: equipmentTypeId })),
    enabled: equipmentTypeId !== undefined,
    staleTime: 60_000,
  });
}
