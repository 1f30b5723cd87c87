-- A small scope's work orders within dates (begin, end) are read off each of its toilets' and
-- devices' ranges (modules/access toiletOrDeviceRanges). Off the (object, id) indexes a range
-- was read whole when few of its records fall in the dates: a customer's "last 7 days" read
-- all 5,000 of its records for the page and again for its count. With these the planner reads
-- each range's records in the dates alone and sorts them (1M records, a customer's varied
-- date filters: 1.56 → 0.94 ms a page, 7 days 1.16 → 0.66 ms). They carry the columns of 0064,
-- so the filter is still tested from the index.
CREATE INDEX maintenance_records_device_created_idx ON maintenance_records (device_id, created_at)
  INCLUDE (id, toilet_id, status, kind, equipment_type_id, fault_type_id, assignee_id, team_id, due_at)
  WHERE NOT is_delete;
CREATE INDEX maintenance_records_toilet_created_idx ON maintenance_records (toilet_id, created_at)
  INCLUDE (id, device_id, status, kind, equipment_type_id, fault_type_id, assignee_id, team_id, due_at)
  WHERE NOT is_delete;
