"""Dynamixel Protocol 1.0/2.0 bridge on dynamixel-sdk, and a bus emulator on a pseudo-terminal."""
