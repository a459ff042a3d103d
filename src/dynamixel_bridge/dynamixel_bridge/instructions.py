"""Instruction codes and status error bits shared by both protocols (spec snake.md §8.1;
DynamixelSDK python/src/dynamixel_sdk/robotis_def.py, protocol1/2_packet_handler.py)."""
from __future__ import annotations

PING, READ, WRITE, REG_WRITE, ACTION, FACTORY_RESET, REBOOT, CLEAR = 1, 2, 3, 4, 5, 6, 8, 16
STATUS = 0x55
SYNC_READ, SYNC_WRITE, FAST_SYNC_READ = 0x82, 0x83, 0x8A
BULK_READ, BULK_WRITE, FAST_BULK_READ = 0x92, 0x93, 0x9A
BROADCAST_ID = 0xFE
MAX_ID = 0xFC

NAMES = {PING: 'PING', READ: 'READ', WRITE: 'WRITE', REG_WRITE: 'REG_WRITE', ACTION: 'ACTION',
         FACTORY_RESET: 'FACTORY_RESET', REBOOT: 'REBOOT', CLEAR: 'CLEAR', STATUS: 'STATUS',
         SYNC_READ: 'SYNC_READ', SYNC_WRITE: 'SYNC_WRITE', FAST_SYNC_READ: 'FAST_SYNC_READ',
         BULK_READ: 'BULK_READ', BULK_WRITE: 'BULK_WRITE', FAST_BULK_READ: 'FAST_BULK_READ'}

# Protocol 1.0 status error byte: one bit per condition
P1_VOLTAGE, P1_ANGLE, P1_OVERHEAT, P1_RANGE = 0x01, 0x02, 0x04, 0x08
P1_CHECKSUM, P1_OVERLOAD, P1_INSTRUCTION = 0x10, 0x20, 0x40
P1_ERROR_BITS = {P1_VOLTAGE: 'input voltage', P1_ANGLE: 'angle limit', P1_OVERHEAT: 'overheating',
                 P1_RANGE: 'out of range', P1_CHECKSUM: 'checksum', P1_OVERLOAD: 'overload',
                 P1_INSTRUCTION: 'instruction'}

# Protocol 2.0 status error byte: bit 7 = hardware alert, bits 0-6 = one error number
P2_ALERT = 0x80
P2_RESULT_FAIL, P2_INSTRUCTION, P2_CRC, P2_DATA_RANGE = 1, 2, 3, 4
P2_DATA_LENGTH, P2_DATA_LIMIT, P2_ACCESS = 5, 6, 7
P2_ERRORS = {P2_RESULT_FAIL: 'result fail', P2_INSTRUCTION: 'instruction', P2_CRC: 'CRC',
             P2_DATA_RANGE: 'data range', P2_DATA_LENGTH: 'data length',
             P2_DATA_LIMIT: 'data limit', P2_ACCESS: 'access'}
# X-series Hardware Error Status (address 70) bits
HW_VOLTAGE, HW_OVERHEAT, HW_ENCODER, HW_SHOCK, HW_OVERLOAD = 0x01, 0x04, 0x08, 0x10, 0x20
HW_ERROR_BITS = {HW_VOLTAGE: 'input voltage', HW_OVERHEAT: 'overheating',
                 HW_ENCODER: 'motor encoder', HW_SHOCK: 'electrical shock',
                 HW_OVERLOAD: 'overload'}


def describe_error(protocol: int, error: int, hardware_status: int = 0) -> str:
    """The status error byte in words ('' when clear)."""
    if protocol == 1:
        return ', '.join(name for bit, name in P1_ERROR_BITS.items() if error & bit)
    words = []
    if error & 0x7F:
        words.append(P2_ERRORS.get(error & 0x7F, f'error number {error & 0x7F}') + ' error')
    if error & P2_ALERT:
        hw = ', '.join(n for bit, n in HW_ERROR_BITS.items() if hardware_status & bit)
        words.append(f'hardware alert ({hw})' if hw else 'hardware alert')
    return ', '.join(words)
