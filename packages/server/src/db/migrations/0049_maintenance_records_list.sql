-- The work-order list at a million records (issue 18). A serial-number keyword (MT-00012) is a
-- prefix of the record's serial number, ignoring case (db/sql.ts serialPrefixSql), as for
-- devices in 0041: one btree range instead of intersecting character pairs found in nearly
-- every record.
CREATE INDEX maintenance_records_ser_num_prefix ON maintenance_records (lower(ser_num) text_pattern_ops) WHERE NOT is_delete;
-- A partial index's expression gets no statistics, so without these the planner guessed 0.5%
-- of the table for any prefix and walked the primary key newest first, filtering, instead.
CREATE STATISTICS maintenance_records_ser_num_lower ON (lower(ser_num)) FROM maintenance_records;
-- The status filter (待派单, 已完成 …) pages newest first along one index range instead of
-- sorting every open record or filtering the primary key.
CREATE INDEX maintenance_records_status_idx ON maintenance_records (status, id DESC) WHERE NOT is_delete;
